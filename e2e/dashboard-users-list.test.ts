/**
 * The dashboard's users list in Chromium, over a project of many users
 * seeded straight into its database (10,000 users): search finds
 * one user, the pager moves forward and back (the cursors live in the URL,
 * so a reload keeps the page), the order by sign-up date turns, the team
 * filter keeps a team's members only, the "Create user" dialog creates a
 * user and refuses a taken address beside its field, axe in both themes,
 * and the page at 360 px wide.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { ServerTeam } from '@latchkey/js/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageInBothThemes, type DashboardStack, signedInPage, startDashboard } from './support/dashboard.js';

/**
 * Users seeded: 10,000, written into the dev service's embedded database in
 * one statement before it starts (through `POST /users`, 16 at a time, the
 * same took 52-94 s on a busy 2-core machine). Each signs in with its
 * address, half of them verified, one a millisecond after the other.
 */
const seeded = 10_000;

async function seedUsers(db: PGlite, projectId: string): Promise<void> {
  await db.query(
    `INSERT INTO users (id, project_id, display_name, primary_email, primary_email_verified,
       primary_email_auth_enabled, signed_up_at, last_active_at)
     SELECT gen_random_uuid(), $1, 'Seed User ' || lpad(i::text, 5, '0'),
       'seed-' || lpad(i::text, 5, '0') || '@example.com', i % 2 = 0, true,
       now() - interval '1 day' + i * interval '1 millisecond', now() - interval '1 day' + i * interval '1 millisecond'
     FROM generate_series(1, $2::int) AS i`,
    [projectId, seeded],
  );
  await db.query(
    `INSERT INTO contact_channels (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth, created_at)
     SELECT gen_random_uuid(), project_id, id, 'email', primary_email, primary_email_verified, true, true, signed_up_at
     FROM users WHERE project_id = $1`,
    [projectId],
  );
}

let stack: DashboardStack;
let team: ServerTeam;
const teamMembers = ['Grace Hopper', 'Katherine Johnson', 'Margaret Hamilton'];

beforeAll(async () => {
  const started = performance.now();
  stack = await startDashboard({ seed: seedUsers });
  const seconds = (performance.now() - started) / 1000;
  console.info(`dashboard-users-list: ${seeded} users seeded and the service started in ${seconds.toFixed(1)} s`);
  expect((await stack.admin.listUsers({ limit: 1, query: 'seed-10000@example.com' })).items).toHaveLength(1);
  await stack.admin.createUser({
    primaryEmail: 'ada.lovelace@example.com',
    displayName: 'Ada Lovelace',
    primaryEmailAuthEnabled: true,
  });
  team = await stack.admin.createTeam({ displayName: 'Analytical Engine' });
  for (const name of teamMembers) {
    const email = `${name.split(' ')[0]!.toLowerCase()}@example.org`;
    const user = await stack.admin.createUser({ primaryEmail: email, displayName: name, primaryEmailVerified: true });
    await team.addUser(user.id);
  }
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const table = (page: Page) => page.getByRole('table');
/** The names in the table's user column, in order. */
const shownNames = (page: Page) => table(page).locator('tbody tr td:first-child a').allTextContents();

async function usersPage(path = '/users') {
  const signedIn = await signedInPage(stack, stack.projectUrl(path));
  await signedIn.page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await table(signedIn.page).locator('tbody tr').first().waitFor();
  return signedIn;
}

describe('dashboard: users list', () => {
  it('shows the newest users first, finds one by search, and tells a search without match', async () => {
    const { context, page } = await usersPage();
    try {
      const newest = await stack.admin.listUsers({ orderBy: 'signedUpAt', desc: true, limit: 25 });
      await expect.poll(() => shownNames(page)).toEqual(newest.items.map((u) => u.displayName));
      const verified = newest.items.find((u) => u.primaryEmailVerified)!;
      const row = table(page).getByRole('row').filter({ hasText: verified.primaryEmail! });
      await row.getByText('Verified', { exact: true }).waitFor();

      await page.getByLabel('Search users').fill('seed-07342');
      await expect.poll(() => shownNames(page)).toEqual(['Seed User 07342']);

      await page.getByLabel('Search users').fill('lovelace');
      await expect.poll(() => shownNames(page)).toEqual(['Ada Lovelace']);
      expect(new URL(page.url()).searchParams.get('q')).toBe('lovelace');
      await table(page).getByRole('row').filter({ hasText: 'ada.lovelace@example.com' }).waitFor();

      await page.getByLabel('Search users').fill('nobody-by-this-name');
      await page.getByText('No match for “nobody-by-this-name”').waitFor();

      await page.getByLabel('Search users').fill('Ada Lovelace');
      await page.getByRole('link', { name: 'Ada Lovelace' }).click();
      const ada = (await stack.admin.listUsers({ query: 'ada.lovelace@example.com' })).items[0]!;
      await page.waitForURL((url) => url.pathname.endsWith(`/users/${ada.id}`));

      // Back from the user's page: the list as it was left.
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await expect.poll(() => shownNames(page)).toEqual(['Ada Lovelace']);
      expect(await page.getByLabel('Search users').inputValue()).toBe('Ada Lovelace');
    } finally {
      await context.close();
    }
  });

  it('pages forward and back, and a reload keeps the page', async () => {
    const { context, page } = await usersPage();
    try {
      const first = await shownNames(page);
      expect(first).toHaveLength(25);
      await page.getByRole('navigation', { name: 'Pages' }).getByText('Page 1', { exact: true }).waitFor();

      // From here on: each GET /users the page makes, and whether a loading spinner ever replaces the rows.
      const requests: URLSearchParams[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('/api/v1/users')) requests.push(url.searchParams);
      });
      await page.evaluate(() => {
        const seen = window as unknown as { spinnerSeen: boolean };
        seen.spinnerSeen = false;
        new MutationObserver(() => {
          if (document.querySelector('main .ld-state[role="status"]')) seen.spinnerSeen = true;
        }).observe(document.querySelector('main')!, { childList: true, subtree: true });
      });

      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Page 2', { exact: true }).waitFor();
      await expect.poll(() => shownNames(page)).not.toEqual(first);
      expect(requests).toHaveLength(1);
      expect(requests[0]!.get('cursor')).toBeTruthy();
      expect(requests[0]!.get('limit')).toBe('25');
      expect(await page.evaluate(() => (window as unknown as { spinnerSeen: boolean }).spinnerSeen)).toBe(false);
      expect(new URL(page.url()).searchParams.getAll('after')).toHaveLength(1);
      const second = await shownNames(page);
      expect(second).toHaveLength(25);
      expect(second.filter((name) => first.includes(name))).toEqual([]);
      const expected = await stack.admin.listUsers({ orderBy: 'signedUpAt', desc: true, limit: 50 });
      expect(second).toEqual(expected.items.slice(25).map((u) => u.displayName));

      await page.reload();
      await page.getByText('Page 2', { exact: true }).waitFor();
      await expect.poll(() => shownNames(page)).toEqual(second);

      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByText('Page 1', { exact: true }).waitFor();
      await expect.poll(() => shownNames(page)).toEqual(first);
      await expect.poll(() => page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('sorts by sign-up date both ways', async () => {
    const { context, page } = await usersPage();
    try {
      const header = page.getByRole('columnheader', { name: /Signed up/ });
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
      await header.getByRole('button').click();
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
      const oldest = await stack.admin.listUsers({ orderBy: 'signedUpAt', limit: 25 });
      await expect.poll(() => shownNames(page)).toEqual(oldest.items.map((u) => u.displayName));
      expect(new URL(page.url()).searchParams.get('order')).toBe('asc');

      await header.getByRole('button').click();
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
      const newest = await stack.admin.listUsers({ orderBy: 'signedUpAt', desc: true, limit: 25 });
      await expect.poll(() => shownNames(page)).toEqual(newest.items.map((u) => u.displayName));
    } finally {
      await context.close();
    }
  });

  it("filters by team: only the team's members", async () => {
    const { context, page } = await usersPage();
    try {
      await page.getByLabel('Team').selectOption({ label: 'Analytical Engine' });
      await expect.poll(async () => (await shownNames(page)).sort()).toEqual([...teamMembers].sort());
      expect(new URL(page.url()).searchParams.get('team')).toBe(team.id);
      await expect.poll(() => page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);

      await page.getByLabel('Search users').fill('grace');
      await expect.poll(() => shownNames(page)).toEqual(['Grace Hopper']);

      await page.getByLabel('Team').selectOption({ label: 'All teams' });
      await page.getByLabel('Search users').fill('');
      await expect.poll(async () => (await shownNames(page)).length).toBe(25);
    } finally {
      await context.close();
    }
  });

  it('creates a user, refusing a taken address beside the e-mail field', async () => {
    const { context, page } = await usersPage();
    try {
      await page.getByRole('button', { name: 'Create user' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create a user' });
      await dialog.getByRole('button', { name: 'Create user' }).click();
      await dialog.getByText('Enter the e-mail address of the user.').waitFor();

      await dialog.getByLabel('E-mail', { exact: true }).fill('ada.lovelace@example.com');
      await dialog.getByLabel('Display name (optional)').fill('Another Ada');
      await dialog.getByRole('button', { name: 'Create user' }).click();
      const email = dialog.getByLabel('E-mail', { exact: true });
      await dialog.getByText('A user of this project already has this e-mail address.').waitFor();
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      const errorId = (await email.getAttribute('aria-describedby'))!.split(' ')[0]!;
      expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe(
        'A user of this project already has this e-mail address.',
      );

      await email.fill('charles.babbage@example.com');
      await dialog.getByLabel('Display name (optional)').fill('Charles Babbage');
      await dialog.getByLabel('Password (optional)').fill('difference engine 1822');
      await dialog.getByRole('switch', { name: 'E-mail verified' }).click();
      await dialog.getByRole('button', { name: 'Create user' }).click();

      await expect.poll(async () => (await stack.admin.listUsers({ query: 'charles.babbage' })).items.length).toBe(1);
      const charles = (await stack.admin.listUsers({ query: 'charles.babbage' })).items[0]!;
      expect(charles).toMatchObject({ displayName: 'Charles Babbage', primaryEmailVerified: true, hasPassword: true });
      await page.waitForURL((url) => url.pathname.endsWith(`/users/${charles.id}`));
      await expect.poll(() => dialog.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('passes axe in both themes, with the dialog open too', async () => {
    const { context, page } = await usersPage();
    try {
      await checkPageInBothThemes(page, 'users-list');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('dialog', { name: 'Create a user' }).waitFor();
      await checkPageInBothThemes(page, 'users-list-create');
    } finally {
      await context.close();
    }
  });

  it('fits 360 px wide: the table scrolls inside its frame, not the page', async () => {
    const signedIn = await signedInPage(stack, stack.projectUrl('/users'), { viewport: { width: 360, height: 740 } });
    try {
      const { page } = signedIn;
      await table(page).locator('tbody tr').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.getByLabel('Search users').waitFor();
      await page.getByRole('button', { name: 'Next' }).waitFor();
    } finally {
      await signedIn.context.close();
    }
  });
});
