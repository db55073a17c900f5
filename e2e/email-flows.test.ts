import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
import { linkOf, type MailboxMessage, waitForMail } from './support/mailbox.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  // The dev project offers magic link from its first start, as `npm start` shows it.
  const response = await fetch(`${stack.dev.apiUrl}/api/v1/projects/current`, {
    headers: {
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': stack.dev.publishableClientKey,
    },
  });
  expect((await response.json()).config.magic_link_enabled).toBe(true);
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

/** Opens the dev mailbox in `context`, opens `mail` from the list and clicks its link; resolves with the page the link opened. */
async function followMailedLink(context: BrowserContext, mail: MailboxMessage): Promise<Page> {
  const mailbox = await context.newPage();
  await mailbox.goto(stack.dev.mailboxUrl);
  await mailbox.locator(`a[href="/mailbox/${mail.id}"]`).click();
  await mailbox.getByRole('heading', { level: 1, name: mail.subject }).waitFor();
  const link = linkOf(mail);
  const [opened] = await Promise.all([
    context.waitForEvent('page'),
    mailbox
      .locator(`a[href="${link.replace(/"/g, '\\"')}"]`)
      .first()
      .click(),
  ]);
  await mailbox.close();
  await opened.waitForLoadState();
  return opened;
}

async function signUp(page: Page, email: string) {
  await page.goto(`${stack.demoUrl}/handler/sign-up`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /create account/i }).click();
  await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
}

describe('e-mail flows in Chromium', () => {
  it('signs up, opens the dev mailbox, clicks the verification link and sees the address verified', async () => {
    const { context, page } = await fresh();
    const email = newAddress('verify');
    await signUp(page, email);
    const mail = await waitForMail(stack.dev, email, /verification/);
    const opened = await followMailedLink(context, mail);
    expect(new URL(opened.url()).pathname).toBe('/handler/email-verification');
    await opened.getByRole('heading', { level: 1, name: 'E-mail verified' }).waitFor({ timeout: 30_000 });
    // Opened again, the used link says so.
    await opened.reload();
    await opened.getByRole('heading', { level: 1, name: 'This link was already used' }).waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('resets a forgotten password from the mailbox, then signs in with the new one', async () => {
    const email = newAddress('reset');
    const setup = await fresh();
    await signUp(setup.page, email);
    await setup.context.close();

    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/handler\/forgot-password$/);
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor({ timeout: 30_000 });

    const opened = await followMailedLink(context, await waitForMail(stack.dev, email, /reset/));
    await opened.getByLabel('New password', { exact: true }).fill('brand-new-battery');
    await opened.getByLabel('Confirm new password').fill('brand-new-battery');
    await opened.getByRole('button', { name: 'Save new password' }).click();
    await opened.getByRole('heading', { level: 1, name: 'Password changed' }).waitFor({ timeout: 30_000 });
    await opened.getByRole('link', { name: 'Sign in' }).click();
    await opened.waitForURL(/\/handler\/sign-in/);
    await opened.getByLabel(/e-?mail/i).fill(email);
    await opened.getByLabel(/^password$/i).fill('brand-new-battery');
    await opened.getByRole('button', { name: /^sign in$/i }).click();
    await expect.poll(() => opened.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    await context.close();
  });

  it('signs in with the e-mailed code typed by keyboard, lower case', async () => {
    const email = newAddress('otp');
    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.keyboard.press('Enter');
    const code = page.getByLabel('Code from the e-mail');
    await code.waitFor({ timeout: 30_000 });
    const mail = await waitForMail(stack.dev, email, /magic/);
    // The code is the first six characters of the link's code; the mail shows them upper-cased.
    const otp = new URL(linkOf(mail)).searchParams.get('code')!.slice(0, 6).toUpperCase();
    expect(mail.text).toContain(otp);
    await page.keyboard.type(otp.toLowerCase());
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('says a wrong code is wrong, then signs in by the link of a new code from the mailbox', async () => {
    const email = newAddress('link');
    const { context, page } = await fresh();
    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const code = page.getByLabel('Code from the e-mail');
    await code.waitFor({ timeout: 30_000 });
    const first = await waitForMail(stack.dev, email, /magic/);
    const otp = new URL(linkOf(first)).searchParams.get('code')!.slice(0, 6);
    const wrong = `${otp.startsWith('2') ? '3' : '2'}${otp.slice(1)}`;
    await code.fill(wrong);
    await page.getByText('That code is not right. Check the e-mail and try again.').waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByText(/A new code is on its way/).waitFor({ timeout: 30_000 });
    const second = await waitForMail(stack.dev, email, /magic/, 2);
    expect(second.id).not.toBe(first.id);
    const opened = await followMailedLink(context, second);
    await expect.poll(() => opened.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    expect(new URL(opened.url()).pathname).toBe('/');
    await context.close();
  });
});

describe('the e-mail pages, accessibility', () => {
  it.each(['light', 'dark'] as const)(
    'forgot-password, a bad reset link and the code form have no serious axe violations (%s)',
    async (colorScheme) => {
      const context = await stack.browser.newContext({ colorScheme });
      const page = await context.newPage();
      const check = () => seriousAxeViolations(page);
      await page.goto(`${stack.demoUrl}/handler/forgot-password`);
      await page.getByLabel(/e-?mail/i).waitFor();
      expect(await check()).toEqual([]);
      await page.goto(`${stack.demoUrl}/handler/password-reset?code=${'z'.repeat(45)}`);
      await page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor({ timeout: 30_000 });
      expect(await check()).toEqual([]);
      await page.goto(`${stack.demoUrl}/handler/sign-in`);
      await page.getByRole('button', { name: 'E-mail me a code' }).click();
      await page.getByLabel(/e-?mail/i).fill(newAddress('axe'));
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code from the e-mail').waitFor({ timeout: 30_000 });
      expect(await check()).toEqual([]);
      await context.close();
    },
  );

  it('mails the new-device alert for a sign-in from a second browser, and nothing for a reload of the first', async () => {
    const email = newAddress('alerted');
    const as = (access: 'server' | 'admin') => ({
      'content-type': 'application/json',
      'x-stack-project-id': stack.dev.projectId,
      'x-stack-access-type': access,
      'x-stack-publishable-client-key': stack.dev.publishableClientKey,
      'x-stack-secret-server-key': stack.dev.secretServerKey,
      ...(access === 'admin' ? { 'x-stack-super-secret-admin-key': stack.dev.superSecretAdminKey } : {}),
    });
    const setAlerts = async (on: boolean) => {
      const answer = await fetch(`${stack.dev.apiUrl}/api/v1/projects/current`, {
        method: 'PATCH',
        headers: as('admin'),
        body: JSON.stringify({ config: { new_device_alert_enabled: on } }),
      });
      expect(answer.status, await answer.text()).toBe(200);
    };
    // The alert goes to a verified address: the account is made by server code with one.
    const created = await fetch(`${stack.dev.apiUrl}/api/v1/users`, {
      method: 'POST',
      headers: as('server'),
      body: JSON.stringify({
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password,
      }),
    });
    expect(created.status, await created.text()).toBe(201);
    const signIn = async (page: Page) => {
      await page.goto(`${stack.demoUrl}/handler/sign-in`);
      await page.getByLabel(/e-?mail/i).fill(email);
      await page.getByLabel(/^password$/i).fill(password);
      await page.getByRole('button', { name: /^sign in$/i }).click();
      await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
    };
    const alerts = async () => {
      const response = await fetch(`${stack.dev.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
      const { items } = (await response.json()) as { items: MailboxMessage[] };
      return items.filter((mail) => mail.kind === 'new_device_sign_in');
    };

    // The dev project starts with the alert off (development); an operator turns it on.
    await setAlerts(true);
    try {
      const first = await fresh();
      await signIn(first.page);
      await first.page.reload();
      await expect.poll(() => first.page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);

      // Another browser: the service tells browsers apart by their user agent (see docs/guides/email.md).
      const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
      const second = await stack.browser.newContext({ userAgent: firefox });
      const secondPage = await second.newPage();
      await signIn(secondPage);
      const alert = await waitForMail(stack.dev, email, /^new_device_sign_in$/);
      expect(alert.subject).toBe('New sign-in to your Default project account');
      expect(alert.text).toContain('Firefox on Windows');
      // The first browser's sign-in and reload, which came before, mailed nothing.
      expect(await alerts()).toHaveLength(1);

      // The person opens the mail in the dev mailbox and follows its link to their sessions, in the app.
      const mailbox = await second.newPage();
      await mailbox.goto(stack.dev.mailboxUrl);
      await mailbox.locator(`a[href="/mailbox/${alert.id}"]`).click();
      await mailbox.getByRole('heading', { level: 1, name: alert.subject }).waitFor();
      const sessions = `${stack.demoUrl}/handler/account-settings#sessions`;
      const [opened] = await Promise.all([
        second.waitForEvent('page'),
        mailbox.locator(`a[href="${sessions}"]`).first().click(),
      ]);
      await opened.waitForLoadState();
      expect(new URL(opened.url()).pathname).toBe('/handler/account-settings');
      expect(new URL(opened.url()).hash).toBe('#sessions');

      // Each browser again: a reload of the first, a new sign-in from the second (signed out: a fresh
      // context of it); still the one alert.
      await first.page.reload();
      await expect.poll(() => first.page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
      const secondAgain = await stack.browser.newContext({ userAgent: firefox });
      await signIn(await secondAgain.newPage());
      expect(await alerts()).toHaveLength(1);
      await Promise.all([first.context.close(), second.close(), secondAgain.close()]);
    } finally {
      await setAlerts(false);
    }
  });
});
