import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
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

/** The header's team switcher button, named after the selected team. */
const switcherOf = (page: Page, team: string) => page.getByRole('button', { name: `Team ${team}`, exact: true });
const isFocused = (page: Page, team: string) => switcherOf(page, team).evaluate((el) => el === document.activeElement);

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
  await page.getByRole('heading', { level: 2, name: 'Teams' }).waitFor({ timeout: 30_000 });
}

describe('teams in Chromium', () => {
  it('create, invite by e-mail, accept in another browser, switch teams, remove the member', async () => {
    const ada = await fresh();
    await ada.page.goto(`${stack.demoUrl}/handler/sign-up`);
    await signUp(ada.page, newAddress('ada'));
    await ada.page.getByTestId('user-email').waitFor({ timeout: 30_000 });

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
    await other.page.getByRole('heading', { level: 1, name: 'Join Acme' }).waitFor({ timeout: 30_000 });
    await other.page.getByText(`This invitation was sent to ${grace}.`).waitFor();
    await other.page.getByRole('button', { name: 'Create an account' }).click();
    await other.page.waitForURL(/\/handler\/sign-up/);
    await signUp(other.page, grace);
    await other.page.waitForURL(/\/handler\/team-invitation/, { timeout: 30_000 });
    // The invitation was mailed to her address, which proves it: she joins at once, and it becomes verified.
    await other.page.getByRole('button', { name: 'Join team' }).click();
    await other.page.getByRole('heading', { level: 1, name: 'You joined Acme' }).waitFor({ timeout: 30_000 });

    // The team Grace joined is her selected one.
    await switcherOf(other.page, 'Acme').waitFor({ timeout: 30_000 });

    // Ada sees Grace among the members by e-mail (she has no name) with her role, and no invitation pending.
    await teamsSettings(ada.page);
    await ada.page.getByRole('heading', { level: 3, name: 'Managing Acme' }).waitFor();
    const members = ada.page.getByRole('list', { name: 'Members' });
    await expect.poll(() => members.getByRole('listitem').count(), { timeout: 30_000 }).toBe(2);
    const graceRow = members.getByRole('listitem').filter({ hasText: grace });
    await graceRow.getByText('member', { exact: true }).waitFor();
    await members.getByRole('listitem').filter({ hasText: 'You' }).getByText('admin', { exact: true }).waitFor();
    await ada.page.getByRole('button', { name: `Remove ${grace}` }).waitFor();
    await ada.page.getByText('No pending invitations.').waitFor();
    expect(await seriousAxeViolations(ada.page, { selector: '.lk-settings-section' })).toEqual([]);

    // Grace may not rename or delete Acme; Ada makes her an admin, and then she may; Ada takes it back.
    await teamsSettings(other.page);
    await other.page.getByRole('heading', { level: 3, name: 'Managing Acme' }).waitFor({ timeout: 30_000 });
    await other.page.getByRole('list', { name: 'Members' }).waitFor();
    expect(await other.page.getByRole('button', { name: 'Delete team' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: /^Grant/ }).count()).toBe(0);
    await ada.page.getByLabel(`Role to grant to ${grace}`).selectOption('admin');
    await ada.page.getByRole('button', { name: `Grant the chosen role to ${grace}` }).click();
    await ada.page.getByText(`${grace} now has admin.`).waitFor();
    await graceRow.getByText('admin', { exact: true }).waitFor();
    await teamsSettings(other.page);
    await other.page.getByRole('button', { name: 'Delete team' }).waitFor({ timeout: 30_000 });
    await other.page.getByLabel('Name', { exact: true }).fill('Acme Corp');
    await other.page.getByRole('button', { name: 'Save' }).first().click();
    await other.page.getByText('The team is now called Acme Corp.').waitFor();
    await ada.page.getByRole('button', { name: `Revoke admin from ${grace}` }).click();
    await ada.page.getByText(`${grace} no longer has admin.`).waitFor();
    await teamsSettings(other.page);
    await other.page.getByRole('list', { name: 'Members' }).waitFor({ timeout: 30_000 });
    expect(await other.page.getByRole('button', { name: 'Delete team' }).count()).toBe(0);

    // The switcher by keyboard alone: open it, create Beta inline (then selected, the focus back on the button).
    await ada.page.goto(`${stack.demoUrl}/`);
    const acme = switcherOf(ada.page, 'Acme Corp');
    await acme.waitFor({ timeout: 30_000 });
    await acme.focus();
    await ada.page.keyboard.press('Enter');
    const popover = ada.page.getByRole('dialog', { name: 'Switch team' });
    await popover.waitFor();
    const current = popover.getByRole('button', { name: 'Acme Corp' });
    expect(await current.getAttribute('aria-current')).toBe('true');
    expect(await current.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousAxeViolations(ada.page, { selector: '.lk-team-switcher' })).toEqual([]);
    await ada.page.keyboard.press('Tab');
    await ada.page.keyboard.press('Enter');
    await ada.page.keyboard.type('Beta');
    await ada.page.keyboard.press('Enter');
    await switcherOf(ada.page, 'Beta').waitFor({ timeout: 30_000 });
    expect(await popover.count()).toBe(0);
    await expect.poll(() => isFocused(ada.page, 'Beta')).toBe(true);

    // Open on Beta (current), arrow up to Acme Corp, Enter chooses it; Escape closes and the focus returns.
    await ada.page.keyboard.press('Enter');
    await popover.waitFor();
    expect(await popover.getByRole('button', { name: 'Beta' }).getAttribute('aria-current')).toBe('true');
    await ada.page.keyboard.press('ArrowUp');
    expect(await current.evaluate((el) => el === document.activeElement)).toBe(true);
    // The choice is saved by PATCH /users/me; a reload before it answers would cancel it.
    const saved = ada.page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname.endsWith('/users/me'),
    );
    await ada.page.keyboard.press('Enter');
    expect((await saved).ok()).toBe(true);
    await switcherOf(ada.page, 'Acme Corp').waitFor();
    await expect.poll(() => isFocused(ada.page, 'Acme Corp')).toBe(true);
    await ada.page.keyboard.press('ArrowDown');
    await popover.waitFor();
    await ada.page.keyboard.press('Escape');
    await expect.poll(() => popover.count()).toBe(0);
    await expect.poll(() => isFocused(ada.page, 'Acme Corp')).toBe(true);
    // The choice is the user's, so it survives a reload.
    await ada.page.reload();
    await switcherOf(ada.page, 'Acme Corp').waitFor({ timeout: 30_000 });

    // Ada removes Grace from Acme Corp.
    await teamsSettings(ada.page);
    await ada.page.getByRole('button', { name: 'Manage Acme Corp' }).click();
    await ada.page.getByRole('button', { name: `Remove ${grace}` }).click();
    await ada.page.getByText(`${grace} was removed from the team.`).waitFor();

    await teamsSettings(other.page);
    await other.page.getByText('You are not in any team yet.').waitFor({ timeout: 30_000 });
    await ada.context.close();
    await other.context.close();
  }, 120_000);
});
