import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Bytes, totpAt } from '../packages/js/src/test-support/totp.js';
import { seriousAxeViolations } from './support/axe.js';
import { linkOf, waitForMail } from './support/mailbox.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let origin: string;

async function patchProject(config: Record<string, unknown>) {
  const answer = await fetch(`${stack.dev.apiUrl}/api/v1/projects/current`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': stack.dev.superSecretAdminKey,
    },
    body: JSON.stringify({ config }),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

beforeAll(async () => {
  stack = await startStack();
  origin = stack.demoUrl.replace('127.0.0.1', 'localhost');
  await patchProject({ passkey_enabled: true });
});
afterAll(async () => {
  await stack?.close();
});

const password = 'correct-horse-battery';

/**
 * Whether pages offer passkeys in the e-mail field's autofill. Chromium's virtual authenticator may answer
 * the autofill's pending request by itself, at any moment, so the tests of the button turn it off (the
 * page then behaves as in a browser without conditional mediation).
 */
let autofillOffered = true;

/** A page whose browser has a platform authenticator that holds passkeys and verifies the user at once. */
async function pageWithAuthenticator(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await context.newPage();
  await page.exposeFunction('e2eAutofillOffered', () => autofillOffered);
  await page.addInitScript(() => {
    const credential = window.PublicKeyCredential as
      | (typeof PublicKeyCredential & { isConditionalMediationAvailable?: () => Promise<boolean> })
      | undefined;
    const available = credential?.isConditionalMediationAvailable?.bind(credential);
    if (!credential || !available) return;
    const offered = (window as unknown as { e2eAutofillOffered: () => Promise<boolean> }).e2eAutofillOffered;
    credential.isConditionalMediationAvailable = async () => (await offered()) && (await available());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp };
}

const signedInAs = (page: Page, email: string) =>
  expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);

/**
 * `page.goto`, once more when a navigation the page started itself interrupts
 * it (signing out goes to the after-sign-out page a moment after the menu
 * shows signed out).
 */
async function open(page: Page, url: string) {
  try {
    await page.goto(url);
  } catch (error) {
    if (!String(error).includes('interrupted by another navigation')) throw error;
    await page.waitForLoadState('load');
    await page.goto(url);
  }
}

async function signUp(page: Page, email: string) {
  await open(page, `${origin}/handler/sign-up`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /create account/i }).click();
}

async function signOut(page: Page) {
  await open(page, origin);
  await page
    .getByRole('button', { name: /account menu/i })
    .first()
    .click();
  // Signing out loads the after-sign-out page once the session has ended: wait for that document's load (a
  // same-document navigation before it does not count), so no later page is replaced by it.
  const loaded = page.waitForEvent('load', { timeout: 30_000 });
  await page.getByRole('menuitem', { name: /sign out/i }).click();
  await loaded;
  await expect.poll(() => page.getByRole('link', { name: /sign in/i }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
}

async function signInWithPassword(page: Page, email: string) {
  await open(page, `${origin}/handler/sign-in`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}

/** Opens the sign-in page and presses its passkey button (the autofill off, so that it alone signs in). */
async function signInWithPasskeyButton(page: Page) {
  autofillOffered = false;
  try {
    await open(page, `${origin}/handler/sign-in`);
    // The field offers passkeys once the project's settings are read.
    await expect
      .poll(() => page.getByLabel(/e-?mail/i).getAttribute('autocomplete'), { timeout: 30_000 })
      .toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  } finally {
    autofillOffered = true;
  }
}

/** The six digits of the key shown on the page, `steps` periods of 30 s from now. */
async function codeOfShownKey(page: Page, steps = 0): Promise<{ secret: string; code: string }> {
  const secret = (await page.locator('.lk-totp-secret').getAttribute('data-secret')) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  return { secret, code: totpAt(base32Bytes(secret), Date.now() + steps * 30_000) };
}

const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

describe('passkeys in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  const email = `passkey-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    context = await stack.browser.newContext();
    ({ page } = await pageWithAuthenticator(context));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('adds a passkey in account settings', async () => {
    await signUp(page, email);
    await signedInAs(page, email);
    await open(page, `${origin}/handler/account-settings#passkeys`);
    await page.getByLabel('Name (optional)').fill('This laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await status(page, 'Your passkey was added.').waitFor({ timeout: 30_000 });
    const row = page.locator('.lk-email-row', { hasText: 'This laptop' });
    await row.waitFor();
    expect(await row.textContent()).toContain('never used');
  });

  it('signs out, then signs in with the passkey button', async () => {
    await signOut(page);
    await signInWithPasskeyButton(page);
    await signedInAs(page, email);
  });

  it('signs in through the autofill of the e-mail field', async () => {
    await signOut(page);
    await open(page, `${origin}/handler/sign-in`);
    await page.getByLabel(/e-?mail/i).focus();
    await signedInAs(page, email);
    // The passkey was used: account settings says when.
    await open(page, `${origin}/handler/account-settings#passkeys`);
    const row = page.locator('.lk-email-row', { hasText: 'This laptop' });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/last used/);
  });
});

describe('an account with only a passkey, in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  const email = `passkey-only-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    context = await stack.browser.newContext();
    ({ page } = await pageWithAuthenticator(context));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('signs up with the e-mailed code and a passkey, no password, then signs back in with the passkey', async () => {
    await open(page, `${origin}/handler/sign-up`);
    // The dev project has e-mailed codes on, and this file turned passkeys on.
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click({ timeout: 30_000 });
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const field = page.getByLabel('Code from the e-mail');
    await field.waitFor({ timeout: 30_000 });
    const mail = await waitForMail(stack.dev, email, /magic/);
    // The code is the first six characters of the link's code; the sixth sends it, then the browser makes the passkey.
    await field.fill(new URL(linkOf(mail)).searchParams.get('code')!.slice(0, 6));
    // The page goes on to the after-sign-up page once the passkey is made (signed in already before).
    await page.waitForURL((url) => !url.pathname.startsWith('/handler/'), { timeout: 30_000 });
    await signedInAs(page, email);

    await signOut(page);
    await signInWithPasskeyButton(page);
    await signedInAs(page, email);

    // Account settings: the passkey the sign-up made, and no password (the section offers to set one).
    await open(page, `${origin}/handler/account-settings#passkeys`);
    const row = page.locator('.lk-email-row', { hasText: 'Passkey' });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/last used/);
    await open(page, `${origin}/handler/account-settings#password`);
    await page.getByRole('heading', { name: 'Set a password' }).waitFor({ timeout: 30_000 });
  });
});

describe('two-step sign-in in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let recoveryCode = '';
  let secret = '';
  const email = `mfa-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    context = await stack.browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('turns on two-step sign-in from the key shown, and shows the recovery codes once', async () => {
    await signUp(page, email);
    await signedInAs(page, email);
    await open(page, `${origin}/handler/account-settings#two-step`);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('path').waitFor();
    const shown = await codeOfShownKey(page);
    secret = shown.secret;
    await page.getByLabel('Code from the app, to confirm').fill(shown.code);
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor({ timeout: 30_000 });
    expect(await codes.count()).toBe(10);
    recoveryCode = (await codes.first().textContent()) ?? '';
    await page.getByRole('button', { name: 'Done' }).click();
    await status(page, 'Two-step sign-in is on.').waitFor();
  });

  it('signs in with the password and a code of the app', async () => {
    await signOut(page);
    await signInWithPassword(page, email);
    const field = page.getByLabel('Code from your authenticator app');
    await field.waitFor({ timeout: 30_000 });
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    await field.fill('000000');
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('Invalid code.');
    // The next period's code: the one of this period confirmed the key, and a code works once.
    await field.fill(totpAt(base32Bytes(secret), Date.now() + 30_000));
    await signedInAs(page, email);
  });

  it('signs in with the password and a recovery code', async () => {
    await signOut(page);
    await signInWithPassword(page, email);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await signedInAs(page, email);
  });
});

describe('the project requires two-step sign-in', () => {
  let context: BrowserContext;
  let page: Page;
  const email = `forced-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    await patchProject({ mfa_required: true });
    context = await stack.browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await patchProject({ mfa_required: false });
  });

  it('sets it up for a new account, shows the recovery codes, then goes on signed in', async () => {
    await signUp(page, email);
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor({ timeout: 30_000 });
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('path').waitFor();
    const { code } = await codeOfShownKey(page);
    await page.getByLabel('Code from the app, to confirm').fill(code);
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await signedInAs(page, email);
  });
});

describe.each(['light', 'dark'] as const)('at 360 px wide in the %s theme', (colorScheme) => {
  let context: BrowserContext;
  let page: Page;
  const email = `narrow-${colorScheme}-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    await patchProject({ mfa_required: true });
    context = await stack.browser.newContext({ colorScheme, viewport: { width: 360, height: 740 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await patchProject({ mfa_required: false });
  });

  it('the forced set-up has no serious axe violations, nor its recovery codes', async () => {
    await signUp(page, email);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('path').waitFor({
      timeout: 30_000,
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const { code } = await codeOfShownKey(page);
    await page.getByLabel('Code from the app, to confirm').fill(code);
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor({ timeout: 30_000 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await signedInAs(page, email);
  });

  it('the Passkeys and Two-step sections have no serious axe violations', async () => {
    await open(page, `${origin}/handler/account-settings#passkeys`);
    await page.getByRole('button', { name: 'Add a passkey' }).waitFor({ timeout: 30_000 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await open(page, `${origin}/handler/account-settings#two-step`);
    await page.getByRole('button', { name: 'Turn off' }).waitFor({ timeout: 30_000 });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('the code step has no serious axe violations, nor its recovery-code form', async () => {
    // Signed out in a new tab: the settings page, seeing its session gone, would navigate meanwhile.
    await page.close();
    await context.clearCookies();
    page = await context.newPage();
    await signInWithPassword(page, email);
    await page.getByLabel('Code from your authenticator app').waitFor({ timeout: 30_000 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
