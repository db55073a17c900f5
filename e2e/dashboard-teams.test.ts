/**
 * The dashboard's Teams, Team and Permissions pages in Chromium: an owner
 * creates a team, adds a seeded user found by the member search, grants and
 * revokes a permission (checked through the API), invites by e-mail (the
 * mail arrives in the dev mailbox) and revokes the invitation, deletes the
 * team; creates a permission containing another and sees it nested in the
 * tree, and changes the member default permissions. Axe and screenshots of
 * the three pages in both themes, and the teams and team pages at 360 px.
 */
import type { ServerTeam, ServerUser } from '@latchkey/js/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageInBothThemes, type DashboardStack, signedInPage, startDashboard } from './support/dashboard.js';
import { waitForMail } from './support/mailbox.js';

let stack: DashboardStack;
let grace: ServerUser;
let seededTeam: ServerTeam;

beforeAll(async () => {
  stack = await startDashboard();
  grace = await stack.admin.createUser({
    primaryEmail: 'grace.hopper@example.com',
    displayName: 'Grace Hopper',
    primaryEmailVerified: true,
  });
  await stack.admin.createTeamPermissionDefinition({
    id: 'billing:read',
    description: 'Reads invoices',
    containedPermissionIds: [],
  });
  seededTeam = await stack.admin.createTeam({ displayName: 'Difference Engine', creatorUserId: grace.id });
  await stack.admin.createTeam({ displayName: 'Analytical Engine' });
});

afterAll(async () => {
  await stack?.close();
});

const dialog = (page: Page) => page.getByRole('dialog');

/** Axe and screenshots in both themes, with transitions off: a button caught mid-transition fails the contrast check. */
async function checkThemes(page: Page, name: string) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await checkPageInBothThemes(page, name);
}

async function teamsPage(options: { viewport?: { width: number; height: number } } = {}) {
  const signedIn = await signedInPage(stack, stack.projectUrl('/teams'), options);
  await signedIn.page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
  await signedIn.page.getByRole('link', { name: 'Difference Engine' }).waitFor();
  return signedIn;
}

describe('dashboard teams', () => {
  it('lists teams, filters them, and passes axe in both themes', async () => {
    const { context, page } = await teamsPage();
    await checkThemes(page, 'teams');
    const names = () =>
      page.getByRole('table', { name: 'Teams' }).locator('tbody tr td:first-child a').allTextContents();
    expect(await names()).toEqual(['Analytical Engine', 'Difference Engine']);
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect.poll(names).toEqual(['Difference Engine', 'Analytical Engine']);
    await page.getByLabel('Search teams').fill('nothing like it');
    await page.getByText('No team matches').waitFor();
    await page.getByLabel('Search teams').fill('difference');
    await page.getByRole('link', { name: 'Difference Engine' }).waitFor();
    await context.close();
  });

  it('creates a team whose creator is named by e-mail, and refuses an address no user has beside its field', async () => {
    const { context, page } = await teamsPage();
    await page.getByRole('button', { name: 'Create team' }).click();
    await dialog(page).getByLabel('Name').fill('Compilers');
    await dialog(page).getByLabel('Creator (optional)').fill('nobody@example.com');
    await dialog(page).getByRole('button', { name: 'Create team' }).click();
    await dialog(page).getByText('No user has this e-mail address.').waitFor();
    expect((await stack.admin.listTeams()).some((team) => team.displayName === 'Compilers')).toBe(false);
    await dialog(page).getByLabel('Creator (optional)').fill('Grace.Hopper@example.com');
    await dialog(page).getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compilers' }).waitFor();
    const granted = page.getByRole('list', { name: 'Permissions granted to Grace Hopper' });
    await granted.getByText('admin', { exact: true }).waitFor();
    const team = (await stack.admin.listTeams()).find((each) => each.displayName === 'Compilers');
    expect((await team!.listUsers()).map((user) => user.id)).toEqual([grace.id]);
    await context.close();
  });

  it('creates a team, manages a member and their permissions, invites by e-mail, and deletes the team', async () => {
    const { context, page } = await teamsPage();

    // Create: the dialog takes us to the new team's page.
    await page.getByRole('button', { name: 'Create team' }).click();
    await dialog(page).getByLabel('Name').fill('Acme Research');
    await dialog(page).getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Research' }).waitFor();
    const team = (await stack.admin.listTeams()).find((each) => each.displayName === 'Acme Research');
    expect(team).toBeDefined();
    const teamId = team!.id;
    await page.getByText('No members').waitFor();

    // Add the seeded user through the search.
    await page.getByRole('button', { name: 'Add member' }).click();
    await dialog(page).getByLabel('User', { exact: true }).fill('grace');
    await dialog(page).getByRole('button', { name: 'Add Grace Hopper' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const members = page.getByRole('table', { name: 'Members of Acme Research' });
    await members.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect((await team!.listUsers()).map((user) => user.id)).toEqual([grace.id]);

    // Adding her again is refused beside the field.
    await page.getByRole('button', { name: 'Add member' }).click();
    await dialog(page).getByLabel('User', { exact: true }).fill(grace.id);
    await dialog(page).getByRole('button', { name: 'Add member' }).click();
    await dialog(page).getByText('The user is already a member of this team.').waitFor();
    await dialog(page).getByRole('button', { name: 'Close' }).click();

    // Grant, then revoke, a permission.
    await page.getByLabel('Grant to Grace Hopper').selectOption('billing:read');
    await members.getByRole('button', { name: 'Grant', exact: true }).click();
    const granted = members.getByRole('list', { name: 'Permissions granted to Grace Hopper' });
    await granted.getByText('billing:read').waitFor();
    // The project's member default permission was granted on joining.
    await granted.getByText('member', { exact: true }).waitFor();
    await expect.poll(() => grace.hasPermission(teamId, 'billing:read')).toBe(true);
    await page.getByRole('button', { name: 'Revoke billing:read from Grace Hopper' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke permission' }).click();
    await granted.getByText('billing:read').waitFor({ state: 'detached' });
    await expect.poll(() => grace.hasPermission(teamId, 'billing:read')).toBe(false);

    // Metadata, saved as JSON.
    await page.getByLabel('Server metadata').fill('{"plan": "pro"}');
    await page.getByRole('button', { name: 'Save server metadata' }).click();
    await page.getByText('Server metadata saved.').waitFor();
    expect((await stack.admin.getTeam(teamId))?.serverMetadata).toEqual({ plan: 'pro' });

    // Invite by e-mail: the mail arrives, the invitation is listed, then revoked.
    const address = `invitee-${Date.now()}@example.com`;
    await page.getByRole('button', { name: 'Invite by e-mail' }).click();
    await dialog(page).getByLabel('E-mail address').fill(address);
    await dialog(page).getByLabel('Invitation page').fill('http://localhost:3000/handler/team-invitation');
    await dialog(page).getByRole('button', { name: 'Send invitation' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const mail = await waitForMail(stack.dev, address, /invitation/);
    expect(mail.text).toContain('http://localhost:3000/handler/team-invitation?code=');
    const invitations = page.getByRole('table', { name: 'Pending invitations to Acme Research' });
    await invitations.getByRole('cell', { name: address, exact: true }).waitFor();
    await checkThemes(page, 'team');
    await page.getByRole('button', { name: `Revoke the invitation to ${address}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByText('No pending invitations').waitFor();
    expect(await team!.listInvitations()).toEqual([]);

    // Remove the member.
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
    await page.getByText('No members').waitFor();
    expect(await team!.listUsers()).toEqual([]);

    // Delete: back to the list, and gone from the API.
    await page.getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    expect(await stack.admin.getTeam(teamId)).toBeNull();
    await page.getByRole('link', { name: 'Difference Engine' }).waitFor();
    expect(await page.getByRole('link', { name: 'Acme Research' }).count()).toBe(0);
    await context.close();
  });

  it('creates a permission containing another, shows the tree, and saves the default permissions', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/permissions'));
    await page.getByRole('heading', { level: 1, name: 'Permissions' }).waitFor();
    const tree = page.getByRole('list', { name: 'Team permissions' });
    await tree
      .getByRole('code')
      .filter({ hasText: /^billing:read$/ })
      .waitFor();

    await page.getByRole('button', { name: 'Create permission' }).click();
    // Checked before sending: an id of the wrong form.
    await dialog(page).getByLabel('Id').fill('Billing Admin');
    await dialog(page).getByRole('button', { name: 'Create permission' }).click();
    await dialog(page).getByText('Use lowercase letters, digits, _ and : only.').waitFor();
    await dialog(page).getByLabel('Id').fill('billing:admin');
    await dialog(page).getByLabel('Description (optional)').fill('Manages billing');
    await dialog(page).getByLabel('Contained permissions').selectOption(['billing:read']);
    await dialog(page).getByRole('button', { name: 'Create permission' }).click();
    await dialog(page).waitFor({ state: 'detached' });

    const contained = page.getByRole('list', { name: 'Contained in billing:admin' });
    await contained
      .getByRole('code')
      .filter({ hasText: /^billing:read$/ })
      .waitFor();
    await tree.getByText('Manages billing').waitFor();
    const created = (await stack.admin.listTeamPermissionDefinitions()).find((d) => d.id === 'billing:admin');
    expect(created).toEqual({
      id: 'billing:admin',
      description: 'Manages billing',
      containedPermissionIds: ['billing:read'],
    });

    // The member defaults.
    await page.getByLabel('Every other member gets').selectOption(['billing:read']);
    await page.getByRole('button', { name: 'Save default permissions' }).click();
    await page.getByText('Default permissions saved.').waitFor();
    await expect
      .poll(async () => (await stack.admin.getProject()).config.teamMemberDefaultPermissions.map(({ id }) => id))
      .toEqual(['billing:read']);

    await checkThemes(page, 'permissions');

    // A contained permission is edited where it shows in the tree.
    await contained.getByRole('button', { name: 'Edit billing:read' }).click();
    await dialog(page).getByLabel('Description (optional)').fill('Reads invoices and receipts');
    await dialog(page).getByRole('button', { name: 'Save permission' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await contained.getByText('Reads invoices and receipts').waitFor();
    expect((await stack.admin.listTeamPermissionDefinitions()).find((d) => d.id === 'billing:read')?.description).toBe(
      'Reads invoices and receipts',
    );

    // Delete it: the tree loses it.
    await page.getByRole('button', { name: 'Delete billing:admin' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete permission' }).click();
    await contained.waitFor({ state: 'detached' });
    expect((await stack.admin.listTeamPermissionDefinitions()).some((d) => d.id === 'billing:admin')).toBe(false);
    await context.close();
  });

  it('fits a 360 px wide screen', async () => {
    const { context, page } = await teamsPage({ viewport: { width: 360, height: 780 } });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('link', { name: 'Difference Engine' }).click();
    await page.getByRole('heading', { level: 1, name: 'Difference Engine' }).waitFor();
    await page
      .getByRole('table', { name: 'Members of Difference Engine' })
      .getByRole('link', { name: 'Grace Hopper' })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(seededTeam.id).toBeTruthy();
    await context.close();
  });
});
