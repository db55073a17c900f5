/**
 * The edges of signing in, in real Chromium against the built `latchkey dev`
 * and demo: somebody signed in who opens sign-in or sign-up goes on; a
 * provider sign-in cancelled at the provider comes back to sign-in with one
 * sentence; one whose e-mail an account already signs in with says what to
 * do and leads there (sign in, then connect the provider); the development
 * stand-in follows a dark colour scheme; and an invitation's sign-up has the
 * invited address filled in, sends no verification mail, and accepting
 * verifies the address.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOf, mailsTo, waitForMail } from './support/mailbox.js';
import { inviteToNewTeam } from './support/server-api.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const password = 'correct-horse-battery';
const newAddress = (name: string) => `${name}-${Date.now()}@example.com`;

async function fresh(options: Parameters<Stack['browser']['newContext']>[0] = {}) {
  const context: BrowserContext = await stack.browser.newContext(options);
  const page: Page = await context.newPage();
  return { context, page };
}

async function signUp(page: Page, email: string) {
  await page.goto(`${stack.demoUrl}/handler/sign-up`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /create account/i }).click();
  await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
}

/** From the sign-in page to the stand-in's page for GitHub. */
async function toStandIn(page: Page) {
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await page.getByRole('heading', { name: 'Sign in with GitHub' }).waitFor({ timeout: 30_000 });
}

describe('sign-in edges in Chromium', () => {
  it('sends somebody signed in from sign-in and sign-up on to where a sign-in ends', async () => {
    const { context, page } = await fresh();
    await signUp(page, newAddress('already'));
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.waitForURL(`${stack.demoUrl}/`, { timeout: 30_000 });
    await page.getByTestId('user-email').waitFor();
    await page.goto(`${stack.demoUrl}/handler/sign-up?after_auth_return_to=%2Fprotected`);
    await page.waitForURL(`${stack.demoUrl}/protected`, { timeout: 30_000 });
    await page.getByText('Protected page').first().waitFor();
    await context.close();
  });

  it('brings a sign-in cancelled at the provider back to sign-in with one sentence', async () => {
    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in?after_auth_return_to=%2Fprotected`);
    await toStandIn(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /cancelled/ });
    await alert.waitFor({ timeout: 30_000 });
    expect((await alert.textContent())?.trim()).toBe('Signing in with the provider was cancelled, so nothing changed.');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/handler/sign-in');
    // The code is off the address (a reload does not say it again); where the sign-in was to end stays.
    expect([...url.searchParams.keys()]).toEqual(['after_auth_return_to']);
    expect(await page.getByText(/Error code|OAUTH_PROVIDER_ACCESS_DENIED/).count()).toBe(0);
    await context.close();
  });

  it('tells a provider e-mail of an existing account to sign in and connect the provider, and leads there', async () => {
    const email = newAddress('taken');
    const owner = await fresh();
    await signUp(owner.page, email);
    await owner.context.close();

    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await toStandIn(page);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(/An account already signs in with this e-mail address/).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/handler/sign-in');
    await page.getByRole('link', { name: 'Sign in, then connect it' }).click();
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/^password$/i).fill(password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL(/\/handler\/account-settings#connected-accounts$/, { timeout: 30_000 });
    const section = page.getByRole('region', { name: 'Connected accounts' });
    await section.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByRole('heading', { name: 'Sign in with GitHub' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/account-settings/, { timeout: 30_000 });
    await page.getByRole('region', { name: 'Connected accounts' }).getByText(email).waitFor({ timeout: 30_000 });
    await context.close();
  });

  it.each(['dark', 'light'] as const)('shows the stand-in in the %s colour scheme', async (colorScheme) => {
    const { context, page } = await fresh({ colorScheme });
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await toStandIn(page);
    // Its people are nobody the README signs up.
    expect(await page.getByText('@example.com').count()).toBe(0);
    const lightness = await page.evaluate(() => {
      const channels = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const of = (element: Element) => {
        const [r = 0, g = 0, b = 0] = channels(getComputedStyle(element).backgroundColor);
        return (r + g + b) / 3;
      };
      return { page: of(document.body), card: of(document.querySelector('main')!) };
    });
    if (colorScheme === 'dark') {
      expect(lightness.page).toBeLessThan(60);
      expect(lightness.card).toBeLessThan(60);
    } else {
      expect(lightness.page).toBeGreaterThan(200);
      expect(lightness.card).toBeGreaterThan(200);
    }
    await context.close();
  });

  it('fills in the invited address on sign-up, mails no verification, and accepting verifies it', async () => {
    const grace = newAddress('invited');
    await inviteToNewTeam(stack.dev, 'Acme', grace, `${stack.demoUrl}/handler/team-invitation`);
    const link = linkOf(await waitForMail(stack.dev, grace, /invit/i));
    const { context, page } = await fresh();
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Join Acme' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.waitForURL(/\/handler\/sign-up/);
    const email = page.getByLabel(/e-?mail/i);
    await expect.poll(() => email.inputValue(), { timeout: 30_000 }).toBe(grace);
    await page.getByLabel(/^password$/i).fill(password);
    await page.getByRole('button', { name: /create account/i }).click();
    await page.waitForURL(/\/handler\/team-invitation/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Join team' }).click();
    await page.getByRole('heading', { level: 1, name: 'You joined Acme' }).waitFor({ timeout: 30_000 });

    await page.goto(stack.demoUrl);
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
    expect(await page.getByText('E-mail verified').locator('xpath=following-sibling::dd').textContent()).toBe('Yes');
    // Only the invitation reached the mailbox: no verification mail.
    expect((await mailsTo(stack.dev, grace)).map((mail) => mail.kind)).toEqual([expect.stringMatching(/invit/i)]);
    await context.close();
  });
});
