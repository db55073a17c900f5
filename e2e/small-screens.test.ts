import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
import { linkOf, waitForMail } from './support/mailbox.js';
import { inviteToNewTeam } from './support/server-api.js';
import { type Stack, startStack } from './support/stack.js';

interface SmallPage {
  /** The address under the demo's origin; `{invitation}` is a team invitation's `?code=`. */
  path: string;
  /** Whose browser opens it. */
  as: 'signed-out' | 'signed-in';
  /** The heading that shows the page is there (level 1, or 2 for an account-settings section). */
  heading: string | RegExp;
  level?: 1 | 2;
}

const pages: SmallPage[] = [
  { path: '/', as: 'signed-out', heading: 'Sign-in that stays out of your way' },
  { path: '/protected', as: 'signed-out', heading: 'Sign in to Latchkey demo' },
  { path: '/handler/sign-in', as: 'signed-out', heading: 'Sign in to Latchkey demo' },
  { path: '/handler/sign-up', as: 'signed-out', heading: 'Sign up for Latchkey demo' },
  { path: '/handler/forgot-password', as: 'signed-out', heading: 'Reset your password' },
  { path: '/handler/team-invitation{invitation}', as: 'signed-out', heading: 'Join Acme' },
  {
    path: '/handler/error?errorCode=CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE&message=Taken',
    as: 'signed-out',
    heading: 'This e-mail belongs to another account',
  },
  { path: '/handler/no-such-page', as: 'signed-out', heading: 'Page not found' },
  { path: '/', as: 'signed-in', heading: /^Welcome back/ },
  { path: '/protected', as: 'signed-in', heading: 'Protected page' },
  { path: '/handler/team-invitation{invitation}', as: 'signed-in', heading: 'Join Acme' },
  { path: '/handler/account-settings#profile', as: 'signed-in', heading: 'Profile', level: 2 },
  { path: '/handler/account-settings#emails', as: 'signed-in', heading: 'E-mails', level: 2 },
  { path: '/handler/account-settings#password', as: 'signed-in', heading: 'Password', level: 2 },
  { path: '/handler/account-settings#two-step', as: 'signed-in', heading: 'Two-step sign-in', level: 2 },
  { path: '/handler/account-settings#sessions', as: 'signed-in', heading: 'Sessions', level: 2 },
  { path: '/handler/account-settings#security-activity', as: 'signed-in', heading: 'Security activity', level: 2 },
  { path: '/handler/account-settings#teams', as: 'signed-in', heading: 'Teams', level: 2 },
  { path: '/handler/account-settings#connected-accounts', as: 'signed-in', heading: 'Connected accounts', level: 2 },
];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});

let invitation: Promise<string> | undefined;
/** The `?code=` of an invitation to Acme, mailed the first time a page needs it (waiting for mail is a test's). */
function invitationQuery(): Promise<string> {
  invitation ??= (async () => {
    const invited = `small-invited-${Date.now()}@example.com`;
    await inviteToNewTeam(stack.dev, 'Acme', invited, `${stack.demoUrl}/handler/team-invitation`);
    return new URL(linkOf(await waitForMail(stack.dev, invited, /invit/i))).search;
  })();
  return invitation;
}
afterAll(async () => {
  await stack?.close();
});

/** The page is no wider than the screen, and axe finds nothing serious or critical on it. */
async function expectFits(page: Page, what: string) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.scroll, `${what} is ${widths.scroll} px wide on a ${widths.screen}-px screen`).toBeLessThanOrEqual(
    widths.screen,
  );
  expect(await seriousAxeViolations(page), what).toEqual([]);
}

describe.each(['light', 'dark'] as const)('at 360 px in the %s scheme', (colorScheme) => {
  const browsers = {} as Record<SmallPage['as'], { context: BrowserContext; page: Page }>;

  beforeAll(async () => {
    for (const as of ['signed-out', 'signed-in'] as const) {
      const context = await stack.browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme });
      browsers[as] = { context, page: await context.newPage() };
    }
    const { page } = browsers['signed-in'];
    await page.goto(`${stack.demoUrl}/handler/sign-up`);
    await page.getByLabel(/e-?mail/i).fill(`small-${colorScheme}-${Date.now()}@example.com`);
    await page.getByLabel(/^password$/i).fill('correct-horse-battery');
    await page.getByRole('button', { name: /create account/i }).click();
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    for (const { context } of Object.values(browsers)) await context.close();
  });

  it.each(pages)('$path ($as) fits the screen', async ({ path, as, heading, level = 1 }) => {
    const { page } = browsers[as];
    const address = path.includes('{invitation}') ? path.replace('{invitation}', await invitationQuery()) : path;
    await page.goto(`${stack.demoUrl}${address}`);
    await page.getByRole('heading', { level, name: heading }).waitFor({ timeout: 30_000 });
    await expectFits(page, `${path} (${as})`);
    if (level === 2) {
      // The chosen section's name is in view in the navigation's row, which scrolls sideways.
      const chosen = page
        .getByRole('navigation', { name: 'Account settings sections' })
        .locator('[aria-current="page"]');
      const box = await chosen.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360, `${heading} in view: ${JSON.stringify(box)}`).toBe(true);
    }
  });

  it('folds the header into a menu that opens, fits, and closes on the way to another page', async () => {
    const { page } = browsers['signed-in'];
    await page.goto(stack.demoUrl);
    await page.getByTestId('user-email').waitFor({ timeout: 30_000 });
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    const protectedLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Protected' });
    expect(await protectedLink.isVisible()).toBe(false);
    // The user's menu stays on the screen beside it.
    const userButton = await page.locator('.lk-user-trigger').boundingBox();
    expect(userButton && userButton.x + userButton.width).toBeLessThanOrEqual(360);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await protectedLink.waitFor({ state: 'visible' });
    await expectFits(page, 'the open menu');
    await protectedLink.click();
    await page.getByRole('heading', { level: 1, name: 'Protected page' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await protectedLink.isVisible()).toBe(false);
  });
});

it('shows the navigation and no menu button on a wide screen', async () => {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(stack.demoUrl);
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('link', { name: 'Protected' }).waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible()).toBe(false);
  } finally {
    await context.close();
  }
});
