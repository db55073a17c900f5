/**
 * The demo flow a person goes through, in real Chromium against the real
 * service started by `latchkey dev`: sign up, see who you are, stay signed in
 * across a reload, sign out, sign in again, and come back to a protected page.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startStack();
  context = await stack.browser.newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const email = `ada-${Date.now()}@example.com`;
const password = 'correct-horse-battery';

async function fillCredentials(p: Page, withEmail: string, withPassword: string) {
  await p.getByLabel(/e-?mail/i).fill(withEmail);
  await p.getByLabel(/^password$/i).fill(withPassword);
}

describe('the demo app in Chromium', () => {
  it('signs a new user up and shows their e-mail', async () => {
    await page.goto(stack.demoUrl);
    await page
      .getByRole('link', { name: /sign up/i })
      .first()
      .click();
    await page.waitForURL(/\/handler\/sign-up/);
    await fillCredentials(page, email, password);
    await page.getByRole('button', { name: /sign up|create account/i }).click();
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('stays signed in after a reload', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
  });

  it('shows the catalogue message for a wrong password', async () => {
    const other = await context.newPage();
    const fresh = await stack.browser.newContext();
    const p = await fresh.newPage();
    await p.goto(`${stack.demoUrl}/handler/sign-in`);
    await fillCredentials(p, email, 'not-the-password');
    await p.getByRole('button', { name: /^sign in$/i }).click();
    await expect
      .poll(() => p.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('Wrong e-mail or password.');
    await fresh.close();
    await other.close();
  });

  it('signs out from the user button', async () => {
    await page
      .getByRole('button', { name: /account|user menu|open menu/i })
      .first()
      .click();
    // Signing out ends with a redirect to the after-sign-out page (a new page load): wait for it, or the next
    // test's navigation races it.
    const redirected = page.waitForEvent('load', { timeout: 30_000 });
    await page.getByRole('menuitem', { name: /sign out/i }).click();
    await redirected;
    await expect
      .poll(() => page.getByRole('link', { name: /sign in/i }).count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('user-email').count()).toBe(0);
    const cookies = await context.cookies();
    expect(cookies.filter((c) => c.name.startsWith('stack-refresh') && c.value)).toEqual([]);
  });

  it('sends a signed-out visitor of /protected to sign-in and back after signing in', async () => {
    await page.goto(`${stack.demoUrl}/protected`);
    await page.waitForURL(/\/handler\/sign-in\?after_auth_return_to=/, { timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/protected');
    await fillCredentials(page, email, password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL(/\/protected$/, { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    expect(await page.getByText('Protected page').count()).toBeGreaterThan(0);
  });

  it('ignores an after_auth_return_to on another origin: signed in, and on the app', async () => {
    const fresh = await stack.browser.newContext();
    const p = await fresh.newPage();
    const visitedElsewhere: string[] = [];
    await fresh.route('https://evil.example/**', (route) => {
      visitedElsewhere.push(route.request().url());
      return route.abort();
    });
    const target = encodeURIComponent('https://evil.example/steal');
    await p.goto(`${stack.demoUrl}/handler/sign-in?after_auth_return_to=${target}`);
    await fillCredentials(p, email, password);
    await p.getByRole('button', { name: /^sign in$/i }).click();
    // Anybody can put a return-to in a link: the sign-in works and ends on the app's own page.
    await p.getByTestId('user-email').waitFor({ timeout: 30_000 });
    // The product waits 2000 ms for a redirect after a location change; give one the time to happen.
    await p.waitForTimeout(2_500);
    expect(new URL(p.url()).origin).toBe(new URL(stack.demoUrl).origin);
    expect(visitedElsewhere).toEqual([]);
    await fresh.close();
  });
});
