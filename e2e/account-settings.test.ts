import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let mailboxUrl: string;
beforeAll(async () => {
  stack = await startStack();
  const printed = (stack.dev as { mailboxUrl?: string }).mailboxUrl;
  if (!printed) throw new Error('latchkey dev --json printed no mailboxUrl');
  mailboxUrl = printed;
});
afterAll(async () => {
  await stack?.close();
});

const password = 'correct-horse-battery';
const newPassword = 'staple-horse-battery-2';

interface MailboxMessage {
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string;
}

/** The newest mail to `to` in the dev mailbox, waiting for it to arrive. */
async function newestMailTo(to: string): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
        found = ((await response.json()) as { items: MailboxMessage[] }).items[0];
        return found !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

/** The link carrying a code in a mail (wire-protocol §12: `<callback>?code=<code>`). */
function codeLink(mail: MailboxMessage): string {
  const match = /https?:\/\/[^\s"'<>]+[?&]code=[0-9a-z]{45}[^\s"'<>]*/i.exec(mail.text || mail.html);
  if (!match) throw new Error(`no code link in the mail "${mail.subject}"`);
  return match[0].replaceAll('&amp;', '&');
}

async function signUp(page: Page, email: string) {
  await page.goto(`${stack.demoUrl}/handler/sign-up`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /create account/i }).click();
  await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(email);
}

const row = (page: Page, email: string) => page.locator('.lk-email-row', { hasText: email });
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

describe('account settings in Chromium', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await stack.browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  const first = `ada-${Date.now()}@example.com`;
  const second = `ada-work-${Date.now()}@example.com`;

  it('uploads a large photo as a small square profile picture', async () => {
    await signUp(page, first);
    await page.goto(`${stack.demoUrl}/handler/account-settings`);
    await page.getByRole('heading', { level: 2, name: 'Profile' }).waitFor({ timeout: 30_000 });
    // A 1600×1000 noisy picture (noise does not compress), drawn by the browser itself.
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1600;
      canvas.height = 1000;
      const context = canvas.getContext('2d')!;
      const pixels = context.createImageData(canvas.width, canvas.height);
      for (let i = 0; i < pixels.data.length; i += 1) pixels.data[i] = i % 4 === 3 ? 255 : Math.random() * 256;
      context.putImageData(pixels, 0, 0);
      return canvas.toDataURL('image/png').split(',')[1]!;
    });
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    await status(page, 'Profile picture updated.').waitFor({ timeout: 30_000 });
    const source = (await page.locator('img.lk-avatar-large').getAttribute('src')) ?? '';
    expect(source).toMatch(/^data:image\/webp;base64,/);
    expect(source.length).toBeLessThanOrEqual(65_536);
    const size = await page
      .locator('img.lk-avatar-large')
      .evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]);
    expect(size[0]).toBe(size[1]);
    expect(size[0]).toBeLessThanOrEqual(256);
  });

  it('adds an e-mail and verifies it from the dev mailbox', async () => {
    await page.goto(`${stack.demoUrl}/handler/account-settings#emails`);
    await page.getByRole('heading', { level: 2, name: 'E-mails' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => row(page, first).textContent(), { timeout: 30_000 }).toContain('Primary');

    await page.getByLabel('New e-mail address').fill(second);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await status(page, `${second} was added.`).waitFor({ timeout: 30_000 });
    expect(await row(page, second).textContent()).toContain('Unverified');

    await row(page, second).getByRole('button', { name: 'Verify' }).click();
    await status(page, `We sent a verification link to ${second}`).waitFor({ timeout: 30_000 });
    const mail = await newestMailTo(second);
    await page.goto(codeLink(mail));
    await page.waitForLoadState('networkidle');

    await page.goto(`${stack.demoUrl}/handler/account-settings#emails`);
    await expect.poll(() => row(page, second).textContent(), { timeout: 30_000 }).toContain('Verified');
    expect(await row(page, second).textContent()).not.toContain('Unverified');
  });

  it('makes it primary and the address to sign in with', async () => {
    await row(page, second)
      .getByRole('button', { name: `Options for ${second}` })
      .click();
    await page.getByRole('menuitem', { name: 'Make primary' }).click();
    await status(page, `${second} is now your primary e-mail.`).waitFor({ timeout: 30_000 });
    await row(page, second)
      .getByRole('button', { name: `Options for ${second}` })
      .click();
    await page.getByRole('menuitem', { name: 'Use for sign-in' }).click();
    await status(page, `You can now sign in with ${second}.`).waitFor({ timeout: 30_000 });
    const badges = await row(page, second).locator('.lk-badge').allTextContents();
    expect(badges).toEqual(['Primary', 'Verified', 'Used for sign-in']);
    expect(await row(page, first).textContent()).not.toContain('Primary');
  });

  it('changes the password by keyboard', async () => {
    await page.getByRole('link', { name: 'Password' }).click();
    const current = page.getByLabel('Current password');
    await current.waitFor();
    await current.focus();
    await page.keyboard.type(password);
    await page.keyboard.press('Tab'); // the show/hide toggle
    await page.keyboard.press('Tab');
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await status(page, 'Your password was changed.').waitFor({ timeout: 30_000 });
    expect(await current.inputValue()).toBe('');
  });

  it('signs out, then signs in with the new address and the new password', async () => {
    await page
      .getByRole('button', { name: /account menu/i })
      .first()
      .click();
    await page.getByRole('menuitem', { name: /sign out/i }).click();
    await expect
      .poll(() => page.getByRole('link', { name: /sign in/i }).count(), { timeout: 30_000 })
      .toBeGreaterThan(0);

    await page.goto(`${stack.demoUrl}/handler/sign-in`);
    await page.getByLabel(/e-?mail/i).fill(second);
    await page.getByLabel(/^password$/i).fill(password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('Wrong e-mail or password.');

    await page.getByLabel(/^password$/i).fill(newPassword);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await expect.poll(() => page.getByTestId('user-email').textContent(), { timeout: 30_000 }).toBe(second);
  });
});

describe.each(['light', 'dark'] as const)('account settings in the %s theme', (colorScheme) => {
  it('has no serious axe violations in any section', async () => {
    const context = await stack.browser.newContext({ colorScheme });
    const page = await context.newPage();
    await signUp(page, `axe-${colorScheme}-${Date.now()}@example.com`);
    await page.goto(`${stack.demoUrl}/handler/account-settings`);
    const serious: string[] = [];
    for (const section of ['Profile', 'E-mails', 'Password']) {
      await page.getByRole('link', { name: section, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: section }).waitFor({ timeout: 30_000 });
      if (section === 'E-mails') await page.locator('.lk-email-row').first().waitFor({ timeout: 30_000 });
      serious.push(...(await seriousAxeViolations(page, { where: section })));
    }
    expect(serious).toEqual([]);
    await context.close();
  });
});
