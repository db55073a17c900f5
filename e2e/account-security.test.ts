import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  // The project lets its users delete their own account (off by default).
  const response = await fetch(`${stack.dev.apiUrl}/api/v1/projects/current`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-secret-server-key': stack.dev.secretServerKey,
      'x-stack-super-secret-admin-key': stack.dev.superSecretAdminKey,
    },
    body: JSON.stringify({ config: { client_user_deletion_enabled: true } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
});
afterAll(async () => {
  await stack?.close();
});

const password = 'correct-horse-battery';
const newPassword = 'staple-horse-battery-2';
const email = `grace-${Date.now()}@example.com`;

async function signIn(page: Page, address: string, secret: string) {
  await page.goto(`${stack.demoUrl}/handler/sign-in`);
  await page.getByLabel(/e-?mail/i).fill(address);
  await page.getByLabel(/^password$/i).fill(secret);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}

async function openSection(page: Page, hash: string, heading: string) {
  await page.goto(`${stack.demoUrl}/handler/account-settings#${hash}`);
  await page.getByRole('heading', { level: 2, name: heading }).waitFor({ timeout: 30_000 });
}

const sessionRows = (page: Page) => page.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
const activityRows = (page: Page) => page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem');

describe('Sessions, Security activity and Delete account in Chromium', () => {
  let laptop: BrowserContext;
  let phone: BrowserContext;
  let page: Page;
  let other: Page;

  beforeAll(async () => {
    laptop = await stack.browser.newContext();
    phone = await stack.browser.newContext({
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    });
    page = await laptop.newPage();
    other = await phone.newPage();
  });
  afterAll(async () => {
    await laptop?.close();
    await phone?.close();
  });

  it('lists the sessions of two browsers, and ends the other one, which is signed out', async () => {
    await page.goto(`${stack.demoUrl}/handler/sign-up`);
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/^password$/i).fill(password);
    await page.getByRole('button', { name: /create account/i }).click();
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    await signIn(other, email, password);
    await expect.poll(() => other.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);

    await openSection(page, 'sessions', 'Sessions');
    await expect.poll(() => sessionRows(page).count(), { timeout: 30_000 }).toBe(2);
    const mine = sessionRows(page).filter({ hasText: 'This device' });
    expect(await mine.textContent()).toMatch(/Chrome on Linux/);
    const phoneRow = sessionRows(page).filter({ hasText: 'Chrome on Android' });
    expect(await phoneRow.textContent()).not.toContain('This device');
    await expect.poll(() => mine.getByRole('button').count()).toBe(0);

    await phoneRow.getByRole('button', { name: 'End the session on Chrome on Android' }).click();
    await page.getByRole('button', { name: 'End session', exact: true }).click();
    await expect.poll(() => sessionRows(page).count(), { timeout: 30_000 }).toBe(1);

    // The phone's next request is refused at once, its refresh too: it shows the signed-out page.
    await other.goto(`${stack.demoUrl}/handler/account-settings#sessions`);
    await expect.poll(() => new URL(other.url()).pathname, { timeout: 30_000 }).toBe('/handler/sign-in');
  });

  it('shows a failed sign-in and a password change in the security activity', async () => {
    await signIn(other, email, 'not-the-password-1');
    await expect
      .poll(() => other.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('Wrong e-mail or password.');

    await openSection(page, 'password', 'Password');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor({ timeout: 30_000 });

    await openSection(page, 'security-activity', 'Security activity');
    await expect.poll(() => activityRows(page).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const names = await activityRows(page).locator('.lk-email-address').allTextContents();
    expect(names.slice(0, 2)).toEqual(['Password changed', 'Failed sign-in']);
    expect(names).toContain('Session ended');
    expect(names.at(-1)).toBe('Account created');
    const failed = activityRows(page).filter({ hasText: 'Failed sign-in' });
    expect(await failed.textContent()).toContain('Chrome on Android');
  });

  it('has no serious axe violations in Sessions, Security activity and the delete form', async () => {
    const serious = await seriousAxeViolations(page, { where: 'Security activity' });
    await openSection(page, 'sessions', 'Sessions');
    await sessionRows(page).first().waitFor({ timeout: 30_000 });
    serious.push(...(await seriousAxeViolations(page, { where: 'Sessions' })));
    await openSection(page, 'profile', 'Profile');
    await page.getByRole('button', { name: 'Delete account…' }).click();
    await page.getByLabel('To confirm, type “delete my account”').waitFor();
    serious.push(...(await seriousAxeViolations(page, { where: 'Delete account' })));
    expect(serious).toEqual([]);
  });

  it('deletes the account after the typed confirmation; signing in again fails', async () => {
    const confirm = page.getByLabel('To confirm, type “delete my account”');
    await confirm.fill('delete');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => page.getByText('Type “delete my account” exactly').count(), { timeout: 30_000 }).toBe(1);

    await confirm.fill('delete my account');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => page.getByTestId('user-email').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).not.toContain('account-settings');

    await signIn(page, email, newPassword);
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('Wrong e-mail or password.');
  });
});
