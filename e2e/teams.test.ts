/**
 * Teams as people use them, in real Chromium against the built `latchkey
 * dev` and demo: Ada creates a team in account settings and invites Grace by
 * e-mail; Grace, in her own browser, opens the link from the dev mailbox,
 * creates her account on the way (the invitation proves her address) and joins; Ada sees her among the members,
 * switches teams with the switcher in the header, and removes her; Grace's
 * account then shows no team.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOf, waitForMail } from './support/mailbox.js';
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

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext();
  return { context, page: await context.newPage() };
}

async function signUp(page: Page, email: string) {
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /create account/i }).click();
}

/** Opens the Teams section afresh (a reload, so what others changed meanwhile shows). */
async function teamsSettings(page: Page) {
  await page.goto(`${stack.demoUrl}/handler/account-settings#teams`);
  await page.reload();
  await page.getByRole('heading', { level: 2, name: 'Teams' }).waitFor({ timeout: 15_000 });
}

describe('teams in Chromium', () => {
  it('create, invite by e-mail, accept in another browser, switch teams, remove the member', async () => {
    const ada = await fresh();
    await ada.page.goto(`${stack.demoUrl}/handler/sign-up`);
    await signUp(ada.page, newAddress('ada'));
    await ada.page.getByTestId('user-email').waitFor({ timeout: 15_000 });

    await teamsSettings(ada.page);
    await ada.page.getByText('You are not in any team yet.').waitFor();
    await ada.page.getByLabel('Team name', { exact: true }).fill('Acme');
    await ada.page.getByRole('button', { name: 'Create team' }).click();
    await ada.page.getByText('Acme was created.').waitFor();

    const grace = newAddress('grace');
    await ada.page.getByLabel('E-mail address', { exact: true }).fill(grace);
    await ada.page.getByRole('button', { name: 'Send invitation' }).click();
    await ada.page.getByText(`An invitation was sent to ${grace}.`).waitFor();
    await ada.page.getByRole('list', { name: 'Pending invitations' }).getByText(grace, { exact: true }).waitFor();

    // Grace, in her own browser, follows the link from the dev mailbox.
    const mail = await waitForMail(stack.dev, grace, /invit/i);
    const link = new URL(linkOf(mail));
    expect(link.pathname).toBe('/handler/team-invitation');
    const other = await fresh();
    await other.page.goto(link.href);
    await other.page.getByRole('heading', { level: 1, name: 'Join Acme' }).waitFor({ timeout: 15_000 });
    await other.page.getByText(`This invitation was sent to ${grace}.`).waitFor();
    await other.page.getByRole('button', { name: 'Create an account' }).click();
    await other.page.waitForURL(/\/handler\/sign-up/);
    await signUp(other.page, grace);
    await other.page.waitForURL(/\/handler\/team-invitation/, { timeout: 15_000 });
    // The invitation was mailed to her address, which proves it: she joins at once, and it becomes verified.
    await other.page.getByRole('button', { name: 'Join team' }).click();
    await other.page.getByRole('heading', { level: 1, name: 'You joined Acme' }).waitFor({ timeout: 15_000 });

    // Ada sees Grace among the members, no invitation pending, and makes a second team.
    await teamsSettings(ada.page);
    const members = ada.page.getByRole('list', { name: 'Members' });
    await expect.poll(() => members.getByRole('listitem').count(), { timeout: 15_000 }).toBe(2);
    await ada.page.getByRole('button', { name: 'Remove Unnamed member' }).waitFor();
    await ada.page.getByText('No pending invitations.').waitFor();
    await ada.page.getByLabel('Team name', { exact: true }).fill('Beta');
    await ada.page.getByRole('button', { name: 'Create team' }).click();
    await ada.page.getByText('Beta was created.').waitFor();

    // The switcher in the header selects a team; the choice is the user's, so it survives a reload.
    const switcher = ada.page.getByLabel('Team', { exact: true });
    await expect.poll(async () => (await switcher.locator('option').allTextContents()).join('|')).toContain('Beta');
    // The choice is saved by PATCH /users/me; a reload before it answers would cancel it.
    const saved = ada.page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname.endsWith('/users/me'),
    );
    await switcher.selectOption({ label: 'Beta' });
    expect((await saved).ok()).toBe(true);
    await ada.page.reload();
    await expect
      .poll(async () => ada.page.getByLabel('Team', { exact: true }).locator('option:checked').textContent(), {
        timeout: 15_000,
      })
      .toBe('Beta');
    await ada.page.getByLabel('Team', { exact: true }).selectOption({ label: 'Acme' });
    await expect.poll(async () => switcher.locator('option:checked').textContent()).toBe('Acme');

    // Ada removes Grace from Acme.
    await teamsSettings(ada.page);
    await ada.page.getByRole('button', { name: 'Manage Acme' }).click();
    await ada.page.getByRole('button', { name: 'Remove Unnamed member' }).click();
    await ada.page.getByText('Unnamed member was removed from the team.').waitFor();

    await teamsSettings(other.page);
    await other.page.getByText('You are not in any team yet.').waitFor({ timeout: 15_000 });
    await ada.context.close();
    await other.context.close();
  }, 120_000);
});
