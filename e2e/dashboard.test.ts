/**
 * The dashboard's frame in Chromium: served by `latchkey dev` at /dashboard/,
 * the one-click sign-in of the dev owner, the projects list and creating a
 * project, reloading a deep link, no breach of its content security policy,
 * the same page behind a proxy that mounts the service under a path prefix,
 * sign-out, and axe in both themes.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageInBothThemes, type DashboardStack, signedInPage, startDashboard } from './support/dashboard.js';

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboard();
});
afterAll(async () => {
  await stack?.close();
});

/** Collects the page's CSP violations (the policy is the service's; a breach means something inline or foreign). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations);
}

describe('the dashboard', () => {
  it('signs the dev owner in with one click and lists the projects they own', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    const violations = await watchCsp(page);
    await page.goto(stack.url('/'));
    await expect.poll(() => page.title()).toContain('Latchkey');
    await checkPageInBothThemes(page, 'sign-in');
    await page.getByRole('button', { name: `Continue as ${stack.dev.ownerEmail}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    const project = await stack.admin.getProject();
    await page.getByRole('link', { name: project.displayName }).waitFor();
    await checkPageInBothThemes(page, 'projects');
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('creates a project: a blank name is refused beside the field, a good one opens the new project', async () => {
    const { context, page } = await signedInPage(stack, stack.url('/'));
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a project' });
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => dialog.getByText('Enter a name for the project.').count()).toBe(1);
    await expect.poll(() => dialog.getByLabel('Name').evaluate((el) => el === document.activeElement)).toBe(true);
    const name = `Shop ${Date.now()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    // The new project's overview, headed by its name.
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(page.url()).toMatch(/\/dashboard\/projects\/[0-9a-f-]{36}$/);
    // The switcher names it, and the projects list has it.
    await expect.poll(() => page.getByRole('combobox', { name: 'Project' }).inputValue()).toMatch(/[0-9a-f-]{36}/);
    await page.getByRole('link', { name: 'All projects' }).click();
    await page.getByRole('link', { name }).waitFor();
    await context.close();
  });

  it('reloads a deep link into the same page, and moves between pages without a reload', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/domains'));
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page.evaluate(() => {
      (globalThis as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page.goto(stack.url('/no/such/page'));
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await context.close();
  });

  it('fits a 360 px wide screen, the pages behind the menu button', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl(), { viewport: { width: 360, height: 740 } });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });

  it('works behind a proxy that mounts the service under /auth/, with no setting', async () => {
    const target = new URL(stack.dev.apiUrl);
    const proxy: Server = createServer((incoming, outgoing) => {
      if (!incoming.url?.startsWith('/auth/')) {
        outgoing.writeHead(404).end('not here');
        return;
      }
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url.slice('/auth'.length),
          headers: { ...incoming.headers, host: target.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(proxy.address() as AddressInfo).port}`;
    try {
      const context = await stack.browser.newContext();
      const page = await context.newPage();
      const violations = await watchCsp(page);
      await page.goto(`${origin}/auth/dashboard`);
      expect(page.url()).toBe(`${origin}/auth/dashboard/`);
      await page.getByRole('button', { name: /^Continue as / }).click();
      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      await page.goto(`${origin}/auth/dashboard/projects/${stack.dev.projectId}/settings`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      expect(await nav.getByRole('link', { name: 'Users' }).getAttribute('href')).toBe(
        `/auth/dashboard/projects/${stack.dev.projectId}/users`,
      );
      expect(await violations()).toEqual([]);
      await context.close();
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('signs out from the user button, back to the sign-in screen', async () => {
    const { context, page } = await signedInPage(stack, stack.url('/'));
    await page
      .getByRole('button', { name: /account|user|menu/i })
      .last()
      .click();
    await page.getByRole('menuitem', { name: /sign out/i }).click();
    await page.getByRole('button', { name: /^Continue as / }).waitFor();
    await context.close();
  });
});
