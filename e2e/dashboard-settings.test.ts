/**
 * The dashboard's overview, project settings, domains and sign-in methods
 * pages, in Chromium against `latchkey dev`, as the dev owner: what each page
 * shows, what it changes (checked through the API), and the production-mode
 * checklist following those changes. Each page is checked with axe in both
 * themes; the overview also at 360 px wide.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPageInBothThemes,
  type DashboardStack,
  type SignedInPage,
  signedInPage,
  startDashboard,
} from './support/dashboard.js';

let stack: DashboardStack;
let signedIn: SignedInPage;
let page: Page;

beforeAll(async () => {
  stack = await startDashboard();
  await stack.admin.createUser({ primaryEmail: 'grace@example.com', displayName: 'Grace Hopper' });
  signedIn = await signedInPage(stack, stack.projectUrl());
  page = signedIn.page;
  // Buttons fade their colours in 120 ms: without motion, axe reads each theme's final colours.
  await page.emulateMedia({ reducedMotion: 'reduce' });
}, 120_000);

afterAll(async () => {
  await signedIn?.context.close();
  await stack?.close();
});

/** Opens a project page afresh and waits for its heading. */
async function open(path: string, heading: string | RegExp) {
  await page.goto(stack.projectUrl(path));
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const checklist = () => page.getByRole('list', { name: 'Production-mode checks that fail' });

describe('dashboard: overview', () => {
  it('shows the users as charts with their text, the recent sign-ups, and the production checklist', async () => {
    const project = await stack.admin.getProject();
    await open('', project.displayName);
    await page.getByRole('img', { name: /^Total users: / }).waitFor();
    await page.getByRole('img', { name: /^Sign-ups: / }).waitFor();
    await page.getByRole('img', { name: /^Daily active users: / }).waitFor();
    expect(await page.locator('.ld-chart canvas').count()).toBe(3);
    const recent = page.getByRole('region', { name: 'Recent sign-ups' });
    const grace = recent.getByRole('link', { name: 'Grace Hopper' });
    await grace.waitFor();
    const user = (await stack.admin.listUsers({ query: 'grace@example.com' })).items[0]!;
    expect(await grace.getAttribute('href')).toContain(`/users/${user.id}`);
    await checklist().getByText("Localhost is not allowed in production mode, turn off 'Allow localhost'").waitFor();
    await checklist()
      .getByText(/OAuth provider github uses shared development keys/)
      .waitFor();
    expect(
      await checklist().getByRole('listitem').filter({ hasText: 'github' }).getByRole('link').getAttribute('href'),
    ).toMatch(/\/sign-in-methods$/);
    await checkPageInBothThemes(page, 'overview');
  });

  it('fits a 360 px wide screen', async () => {
    const narrow = await signedInPage(stack, stack.projectUrl(), { viewport: { width: 360, height: 780 } });
    try {
      await narrow.page.getByRole('img', { name: /^Total users: / }).waitFor();
      await narrow.page.getByRole('region', { name: 'Recent sign-ups' }).waitFor();
      expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await narrow.page.screenshot({ path: 'e2e/screenshots/dashboard/overview-360.png', fullPage: true });
    } finally {
      await narrow.context.close();
    }
  });
});

describe('dashboard: domains', () => {
  it('refuses a bad URL beside the field, adds a good one, and removes it after confirmation', async () => {
    await open('/domains', 'Domains');
    const domain = page.getByLabel('Domain', { exact: true });
    await domain.fill('not a url');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Enter a full URL, starting with https://').waitFor();
    expect(await domain.getAttribute('aria-invalid')).toBe('true');
    await domain.fill('http://shop.example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Use https:// (plain http:// is only for localhost).').waitFor();
    expect((await stack.admin.getProject()).config.domains).toEqual([]);

    await domain.fill('https://shop.example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const table = page.getByRole('table', { name: 'Trusted domains' });
    await table.getByRole('cell', { name: 'https://shop.example.com', exact: true }).waitFor();
    expect((await stack.admin.getProject()).config.domains).toEqual([
      { domain: 'https://shop.example.com', handlerPath: '/handler' },
    ]);
    await checkPageInBothThemes(page, 'domains');

    await page.getByRole('button', { name: 'Remove https://shop.example.com' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove domain' }).click();
    await page.getByText('No trusted domains').waitFor();
    expect((await stack.admin.getProject()).config.domains).toEqual([]);
  });
});

describe('dashboard: sign-in methods', () => {
  it('switches a sign-in method off and on', async () => {
    await open('/sign-in-methods', 'Sign-in methods');
    const password = page.getByRole('switch', { name: 'Password' });
    expect(await password.getAttribute('aria-checked')).toBe('true');
    await password.click();
    await expect.poll(async () => (await stack.admin.getProject()).config.credentialEnabled).toBe(false);
    await expect.poll(() => password.getAttribute('aria-checked')).toBe('false');
    await password.click();
    await expect.poll(async () => (await stack.admin.getProject()).config.credentialEnabled).toBe(true);
  });

  it('adds an OAuth provider with its own keys, showing the callback URL to register', async () => {
    await open('/sign-in-methods', 'Sign-in methods');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an OAuth provider' });
    await dialog.getByLabel('Provider', { exact: true }).selectOption('gitlab');
    await dialog
      .getByText(`${stack.dev.apiUrl.replace(/\/api\/v1\/?$/, '')}/api/v1/auth/oauth/callback/gitlab`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await dialog.getByText('Enter the client id of your OAuth app.').waitFor();
    await dialog.getByLabel('Client id', { exact: true }).fill('gitlab-client');
    await dialog.getByLabel('Client secret', { exact: true }).fill('gitlab-secret');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await dialog.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'OAuth providers' });
    await table.getByRole('cell', { name: 'GitLab', exact: true }).waitFor();
    const providers = (await stack.admin.getProject()).config.oauthProviders;
    // The service lists providers by id, as Stack's does.
    expect(providers.map((provider) => provider.id)).toEqual(['github', 'gitlab', 'google']);
    expect(providers.find((provider) => provider.id === 'gitlab')).toMatchObject({
      type: 'standard',
      enabled: true,
      clientId: 'gitlab-client',
    });
  });

  it('edits a provider: turned off, its stored secret kept', async () => {
    await open('/sign-in-methods', 'Sign-in methods');
    await page.getByRole('button', { name: 'Edit GitLab' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit GitLab' });
    await dialog.getByText('Leave empty to keep the stored secret.').waitFor();
    await dialog.getByRole('checkbox', { name: 'Show this provider on the sign-in page' }).uncheck();
    await dialog.getByRole('button', { name: 'Save provider' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await stack.admin.getProject()).config.oauthProviders.find((p) => p.id === 'gitlab'))
      .toMatchObject({ enabled: false, clientId: 'gitlab-client', clientSecret: 'gitlab-secret' });
  });

  it('adds any OpenID Connect provider by its issuer, refusing an issuer that is not https', async () => {
    await open('/sign-in-methods', 'Sign-in methods');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an OAuth provider' });
    await dialog.getByLabel('Provider', { exact: true }).selectOption('oidc');
    await dialog.getByLabel('Provider id').fill('corp-sso');
    await dialog.getByLabel('Issuer URL').fill('http://sso.example.com');
    await dialog.getByLabel('Button name').fill('Corp SSO');
    await dialog.getByLabel('Client id', { exact: true }).fill('latchkey');
    await dialog.getByLabel('Client secret', { exact: true }).fill('from-the-issuer');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await dialog.getByText('Use an https:// URL').waitFor();
    expect(await dialog.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Issuer URL').fill('https://sso.example.com/realms/staff');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('table', { name: 'OAuth providers' })
      .getByRole('cell', { name: /^Corp SSO/ })
      .waitFor();
    const providers = (await stack.admin.getProject()).config.oauthProviders;
    expect(providers.find((provider) => provider.id === 'corp-sso')).toMatchObject({
      type: 'standard',
      issuer: 'https://sso.example.com/realms/staff',
      displayName: 'Corp SSO',
    });
    await checkPageInBothThemes(page, 'sign-in-methods');
  });

  it('saves a rate limit', async () => {
    await open('/sign-in-methods', 'Sign-in methods');
    const field = page.getByLabel('Wrong passwords per account');
    await field.fill('0');
    await page.getByRole('button', { name: 'Save rate limits' }).click();
    await page.getByText('Enter a whole number from 1 to 100.').waitFor();
    await field.fill('7');
    await page.getByRole('button', { name: 'Save rate limits' }).click();
    await page.getByText('Rate limits saved.').waitFor();
    expect((await stack.admin.getProject()).config.rateLimits?.signInFailuresPerAccount).toBe(7);
  });
});

describe('dashboard: project settings', () => {
  it('renames the project', async () => {
    await open('/settings', 'Project settings');
    await page.getByText(stack.dev.projectId, { exact: true }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Enter a name for the project.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Renamed shop');
    await page.getByLabel('Description (optional)').fill('The shop, renamed');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await stack.admin.getProject()).toMatchObject({
      displayName: 'Renamed shop',
      description: 'The shop, renamed',
    });
    await page.getByRole('combobox', { name: 'Project' }).getByRole('option', { name: 'Renamed shop' }).waitFor({
      state: 'attached',
    });
    await checkPageInBothThemes(page, 'settings');
  });

  it('takes production mode while checks fail, listing them beside the switch, and the checklist follows the settings', async () => {
    await open('/settings', 'Project settings');
    const production = page.getByRole('switch', { name: 'Production mode' });
    await production.click();
    await expect.poll(async () => (await stack.admin.getProject()).isProductionMode).toBe(true);
    await page.getByText(/checks fail; fix them before real users sign in/).waitFor();
    await checklist()
      .getByText(/Localhost is not allowed/)
      .waitFor();
    await production.click();
    await expect.poll(async () => (await stack.admin.getProject()).isProductionMode).toBe(false);

    await open('/domains', 'Domains');
    await page.getByRole('switch', { name: 'Allow localhost' }).click();
    await expect.poll(async () => (await stack.admin.getProject()).config.allowLocalhost).toBe(false);
    await open('', 'Renamed shop');
    await checklist()
      .getByText(/OAuth provider github/)
      .waitFor();
    expect(
      await checklist()
        .getByText(/Localhost is not allowed/)
        .count(),
    ).toBe(0);

    // The shared providers are the last problem: off, the project may run in production mode.
    const { config } = await stack.admin.getProject();
    await stack.admin.updateProject({
      config: { oauthProviders: config.oauthProviders.filter((provider) => provider.type === 'standard') },
    });
    await open('/settings', 'Project settings');
    await page.getByRole('switch', { name: 'Production mode' }).click();
    await expect.poll(async () => (await stack.admin.getProject()).isProductionMode).toBe(true);
    await open('', 'Renamed shop');
    await page.getByText('Nothing keeps this project out of production mode.').waitFor();
    await page.getByText('The project runs in production mode.').waitFor();
  });

  it('deletes a project once its name is typed and confirmed', async () => {
    await page.goto(stack.url('/'));
    await page.getByRole('button', { name: 'Create project' }).click();
    const create = page.getByRole('dialog', { name: 'Create a project' });
    await create.getByLabel('Name', { exact: true }).fill('Short-lived');
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Short-lived' }).waitFor();
    const projectUrl = page.url();
    await page.goto(`${projectUrl.replace(/\/$/, '')}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Project settings' }).waitFor();
    const remove = page.getByRole('button', { name: 'Delete project' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel(/Type the project’s name/).fill('Short-lived');
    await remove.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('link', { name: 'Renamed shop' }).waitFor();
    expect(await page.getByRole('link', { name: 'Short-lived' }).count()).toBe(0);
  });
});
