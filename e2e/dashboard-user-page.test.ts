/**
 * The dashboard's page of one user, in Chromium against the built `latchkey
 * dev`: each test seeds its user through the admin API, acts on the page as
 * the dev owner, and checks what the page did through the API (and, for
 * passwords and sessions, through the very calls an app makes).
 */
import { fileURLToPath } from 'node:url';
import type { ServerUser } from '@latchkey/js/server';
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

let seeded = 0;
const newAddress = (name: string) => `${name}-${Date.now()}-${++seeded}@example.com`;

async function seedUser(name: string): Promise<ServerUser> {
  return stack.admin.createUser({ primaryEmail: newAddress(name), primaryEmailAuthEnabled: true, displayName: name });
}

async function openUser(user: ServerUser, viewport?: { width: number; height: number }) {
  const { context, page } = await signedInPage(stack, stack.projectUrl(`/users/${user.id}`), { viewport });
  await page.getByRole('heading', { level: 1, name: user.displayName ?? undefined }).waitFor();
  return { context, page };
}

const api = (path: string) => `${stack.dev.apiUrl.replace(/\/$/, '')}/api/v1${path}`;

/** `POST /auth/password/sign-in` as an app's browser sends it. */
async function passwordSignIn(email: string, password: string) {
  const response = await fetch(api('/auth/password/sign-in'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': stack.dev.publishableClientKey,
    },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as { user_id?: string; code?: string } };
}

/** The refresh grant of the token endpoint: the status and the known error, if any. */
async function refresh(refreshToken: string) {
  const response = await fetch(api('/auth/oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: new URLSearchParams({
      refresh_token: refreshToken,
      grant_type: 'refresh_token',
      client_id: stack.dev.projectId,
      client_secret: stack.dev.publishableClientKey,
    }),
  });
  return { status: response.status, knownError: response.headers.get('x-stack-known-error') };
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe('the user page', () => {
  it('shows the profile, teams and sessions, passes axe in both themes, and edits the display name', async () => {
    const user = await seedUser('Ada');
    const team = await stack.admin.createTeam({ displayName: 'Analysts', creatorUserId: user.id });
    await user.createSession();
    const { context, page } = await openUser(user);
    const teams = section(page, 'Teams and permissions');
    await teams.getByRole('link', { name: 'Analysts' }).waitFor();
    expect(await teams.getByRole('link', { name: 'Analysts' }).getAttribute('href')).toContain(`/teams/${team.id}`);
    await section(page, 'Sessions')
      .getByRole('button', { name: /^Revoke/ })
      .waitFor();
    await expect.poll(() => section(page, 'Profile').getByText(user.id).count()).toBe(1);
    await checkPageInBothThemes(page, 'user');

    await section(page, 'Profile').getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit profile' });
    await dialog.getByLabel('Display name').fill('Ada Lovelace');
    await dialog.getByLabel('Profile image URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await dialog.getByText(/absolute URL/).waitFor();
    expect((await stack.admin.getUser(user.id))?.displayName).toBe('Ada');
    await dialog.getByLabel('Profile image URL').fill('');
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    expect((await stack.admin.getUser(user.id))?.displayName).toBe('Ada Lovelace');
    await context.close();
  });

  it('refuses server metadata that is not JSON in place, then saves a JSON object', async () => {
    const user = await seedUser('Meta');
    const { context, page } = await openUser(user);
    const field = page.getByLabel('Server metadata');
    await field.fill('{"plan": pro}');
    await page.getByRole('button', { name: 'Save server metadata' }).click();
    await section(page, 'Metadata')
      .getByText(/not valid JSON/)
      .waitFor();
    expect((await stack.admin.getUser(user.id))?.serverMetadata).toEqual(user.serverMetadata);

    await field.fill('{"plan": "pro"}');
    await page.getByRole('button', { name: 'Save server metadata' }).click();
    await page.getByRole('status').filter({ hasText: 'Server metadata saved.' }).waitFor();
    expect((await stack.admin.getUser(user.id))?.serverMetadata).toEqual({ plan: 'pro' });
    await context.close();
  });

  it('sets a password the user then signs in with, showing the length rule beside the field', async () => {
    const user = await seedUser('Pass');
    const { context, page } = await openUser(user);
    const methods = section(page, 'Sign-in methods');
    await methods.getByText('Not set').waitFor();
    await methods.getByRole('button', { name: 'Set a password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set a password' });
    await dialog.getByText('8 to 70 characters.').waitFor();
    await dialog.getByLabel('New password', { exact: true }).fill('short');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await dialog.getByText('At least 8 characters.').waitFor();
    expect((await stack.admin.getUser(user.id))?.hasPassword).toBe(false);

    await dialog.getByLabel('New password', { exact: true }).fill('correct-horse-battery');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await methods.getByRole('button', { name: 'Remove password' }).waitFor();
    const signedIn = await passwordSignIn(user.primaryEmail!, 'correct-horse-battery');
    expect(signedIn.body.user_id, JSON.stringify(signedIn.body)).toBe(user.id);

    await methods.getByRole('button', { name: 'Remove password' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove the password?' })
      .getByRole('button', { name: 'Remove password' })
      .click();
    await methods.getByText('Not set').waitFor();
    expect((await stack.admin.getUser(user.id))?.hasPassword).toBe(false);
    expect((await passwordSignIn(user.primaryEmail!, 'correct-horse-battery')).body.user_id).toBeUndefined();
    await context.close();
  });

  it('revokes a session; its refresh token is then refused', async () => {
    const user = await seedUser('Sess');
    const { refreshToken } = await user.createSession();
    expect((await refresh(refreshToken)).status).toBe(200);
    const { context, page } = await openUser(user);
    const sessions = section(page, 'Sessions');
    await sessions.getByRole('button', { name: /^Revoke/ }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke this session?' })
      .getByRole('button', { name: 'Revoke session' })
      .click();
    await sessions.getByText('No active sessions').waitFor();
    expect(await refresh(refreshToken)).toEqual({ status: 401, knownError: 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED' });
    await context.close();
  });

  it('impersonates: shows the tokens once, lists the session as an impersonation, and the audit log has it', async () => {
    const user = await seedUser('Imp');
    const { context, page } = await openUser(user);
    await page.getByRole('button', { name: 'Impersonate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Impersonate this user' });
    await dialog.getByRole('button', { name: 'Start impersonation' }).click();
    const refreshToken =
      (await dialog.locator('.ld-copy-field', { hasText: 'Refresh token' }).locator('code').textContent()) ?? '';
    expect((await refresh(refreshToken)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await section(page, 'Sessions').getByText('Impersonation').waitFor();
    await section(page, 'Audit events').getByText('impersonation.started').waitFor();
    const events = await stack.admin.listAuditEvents({ userId: user.id, types: ['impersonation.started'] });
    expect(events.items).toHaveLength(1);
    const link = section(page, 'Audit events').getByRole('link', { name: 'All events of this user' });
    expect(await link.getAttribute('href')).toContain(`/audit?user=${user.id}`);
    await context.close();
  });

  it('adds an e-mail address, marks it verified and makes it primary', async () => {
    const user = await seedUser('Mail');
    const second = newAddress('second');
    const { context, page } = await openUser(user);
    const emails = section(page, 'E-mails');
    await emails.getByText(user.primaryEmail!).waitFor();
    await emails.getByRole('button', { name: 'Add e-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an e-mail address' });
    await dialog.getByLabel('E-mail address').fill('nope');
    await dialog.getByRole('button', { name: 'Add address' }).click();
    await dialog.getByText('Enter an e-mail address.').waitFor();
    await dialog.getByLabel('E-mail address').fill(second);
    await dialog.getByRole('button', { name: 'Add address' }).click();
    await emails.getByRole('button', { name: `Mark verified: ${second}` }).click();
    await emails.getByRole('button', { name: `Mark verified: ${second}` }).waitFor({ state: 'detached' });
    await emails.getByRole('button', { name: `Make primary: ${second}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Mail' }).waitFor();
    await expect.poll(async () => (await stack.admin.getUser(user.id))?.primaryEmail).toBe(second);
    const channels = await (await stack.admin.getUser(user.id))!.listContactChannels();
    expect(channels.find((channel) => channel.value === second)).toMatchObject({ isVerified: true, isPrimary: true });

    await emails.getByRole('button', { name: `Remove ${user.primaryEmail}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove address' }).click();
    await emails.getByText(user.primaryEmail!).waitFor({ state: 'detached' });
    expect((await (await stack.admin.getUser(user.id))!.listContactChannels()).map((c) => c.value)).toEqual([second]);
    await context.close();
  });

  it('deletes the user and goes back to the users list', async () => {
    const user = await seedUser('Gone');
    const { context, page } = await openUser(user);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete user' }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/projects/${stack.dev.projectId}/users`));
    expect(await stack.admin.getUser(user.id)).toBeNull();
    await context.close();
  });

  it('says so for a user id the project does not have, with a way back', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl(`/users/${crypto.randomUUID()}`));
    await page.getByRole('heading', { level: 1, name: 'No such user' }).waitFor();
    await page.getByRole('link', { name: 'Back to the users' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/users'));
    await context.close();
  });

  it('fits a 360 px wide screen without scrolling sideways', async () => {
    const user = await seedUser('Narrow');
    await user.createSession({ isImpersonation: true });
    await stack.admin.createTeam({ displayName: 'Narrow team', creatorUserId: user.id });
    const { context, page } = await openUser(user, { width: 360, height: 800 });
    await section(page, 'Sessions').getByText('Impersonation').waitFor();
    await section(page, 'Teams and permissions').getByRole('link', { name: 'Narrow team' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({
      path: fileURLToPath(new URL('./screenshots/dashboard/user-360.png', import.meta.url)),
      fullPage: true,
    });
    await context.close();
  });
});
