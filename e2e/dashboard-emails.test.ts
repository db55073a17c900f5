/**
 * The dashboard's E-mail page in Chromium: mail of the shared sender shows in
 * Sent mail once delivered to the dev mailbox; a template's subject edited
 * with the preview following as typed, saved and reset; the project's own
 * SMTP server, a bad port refused beside its field and a test e-mail to a
 * closed local port answered with the failure; the new-device alert switched
 * on and off, its template listed; axe in both themes; 360 px.
 */
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageInBothThemes, type DashboardStack, signedInPage, startDashboard } from './support/dashboard.js';
import { waitForMail } from './support/mailbox.js';

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboard();
});
afterAll(async () => {
  await stack?.close();
});

/** A local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Collects the page's CSP violations (the preview's iframe included). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations);
}

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('the E-mail page', () => {
  it('shows mail of the shared sender in Sent mail once it is in the dev mailbox', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'));
    await page.getByRole('heading', { level: 1, name: 'E-mail' }).waitFor();
    const sender = page.getByRole('region', { name: 'Sender' });
    await expect.poll(() => sender.getByRole('radio', { name: /Shared sender/ }).isChecked()).toBe(true);
    // Shared mail has no SMTP settings to try: the page says so instead of offering a test.
    await sender.getByText('The shared sender needs no settings.', { exact: false }).waitFor();

    const to = unique('shared');
    await stack.admin.sendMagicLinkEmail(to, { callbackUrl: 'http://localhost:3000/handler/magic-link-callback' });
    const mail = await waitForMail(stack.dev, to, /magic/);
    const sent = page.getByRole('region', { name: 'Sent mail' });
    const row = sent.getByRole('row').filter({ hasText: to });
    await expect
      .poll(async () => {
        await sent.getByRole('button', { name: 'Refresh sent mail' }).click();
        return row.locator('.ld-badge', { hasText: /^Sent$/ }).count();
      })
      .toBe(1);
    expect(await row.textContent()).toContain(mail.subject);
    expect(await row.textContent()).toContain('Magic link');
    await context.close();
  });

  it('edits a template: the preview follows the subject as typed; saved, then reset to the default', async () => {
    const violations = { read: async () => [] as string[] };
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'));
    violations.read = await watchCsp(page);
    await page.reload();
    const project = await stack.admin.getProject();
    const templates = page.getByRole('region', { name: 'Templates' });
    await templates.getByRole('button', { name: 'Edit Password reset' }).click();
    await templates.getByRole('heading', { level: 3, name: 'Edit: Password reset' }).waitFor();
    const preview = templates.getByTestId('preview-subject');
    await expect.poll(() => preview.textContent()).toBe(`Reset your ${project.displayName} password`);
    await templates.getByTitle('Preview of the password reset e-mail').waitFor();

    const subject = templates.getByLabel('Subject', { exact: true });
    await subject.fill('Forgot it? New {{ projectDisplayName }} password inside');
    await expect.poll(() => preview.textContent()).toBe(`Forgot it? New ${project.displayName} password inside`);
    // A placeholder the type does not have: refused beside the subject, nothing saved.
    await subject.fill('Hello {{ nobody }}');
    await templates.getByRole('button', { name: 'Save template' }).click();
    await templates.getByText(/The service refused this: .*nobody/).waitFor();
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    expect((await stack.admin.listEmailTemplates()).find((t) => t.type === 'password_reset')?.isDefault).toBe(true);

    await subject.fill('Forgot it? New {{ projectDisplayName }} password inside');
    await templates.getByRole('button', { name: 'Save template' }).click();
    await templates.getByText('Password reset template saved.').waitFor();
    const saved = (await stack.admin.listEmailTemplates()).find((t) => t.type === 'password_reset');
    expect(saved).toMatchObject({
      subject: 'Forgot it? New {{ projectDisplayName }} password inside',
      isDefault: false,
    });
    await templates
      .getByRole('row', { name: /Password reset/ })
      .getByText('Edited')
      .waitFor();

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await checkPageInBothThemes(page, 'emails-template');

    await templates.getByRole('button', { name: 'Reset to default' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset the password reset template?' });
    await dialog.getByRole('button', { name: 'Reset to default' }).click();
    await templates.getByText('Password reset template reset to the default.').waitFor();
    await expect.poll(() => subject.inputValue()).toBe('Reset your {{ projectDisplayName }} password');
    expect((await stack.admin.listEmailTemplates()).find((t) => t.type === 'password_reset')?.isDefault).toBe(true);
    expect(await violations.read()).toEqual([]);
    await context.close();
  });

  it('sets an own SMTP server: a bad port refused beside the field, a closed port named by the test e-mail', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'));
    const sender = page.getByRole('region', { name: 'Sender' });
    await sender.getByRole('radio', { name: /Own SMTP server/ }).check();
    await sender.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    const port = sender.getByLabel('Port', { exact: true });
    await port.fill('70000');
    await sender.getByLabel('Sender address', { exact: true }).fill('no-reply@example.com');
    await sender.getByRole('button', { name: 'Save sender' }).click();
    await sender.getByText('Enter a port number from 1 to 65535', { exact: false }).waitFor();
    expect(await port.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => port.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await stack.admin.getProject()).config.emailConfig).toEqual({ type: 'shared' });

    const closed = await closedPort();
    await port.fill(String(closed));
    await sender.getByRole('button', { name: 'Save sender' }).click();
    await sender.getByText('Saved: mail goes through your SMTP server.').waitFor();
    expect((await stack.admin.getProject()).config.emailConfig).toMatchObject({
      type: 'standard',
      host: '127.0.0.1',
      port: closed,
      senderEmail: 'no-reply@example.com',
    });

    await sender.getByRole('button', { name: 'Send a test e-mail' }).click();
    await sender.getByText('Enter the address to send the test e-mail to.').waitFor();
    await sender.getByLabel('Send a test e-mail to', { exact: true }).fill(unique('test'));
    await sender.getByRole('button', { name: 'Send a test e-mail' }).click();
    await sender.getByRole('alert').getByText('The test e-mail was not sent: connection refused.').waitFor();

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await checkPageInBothThemes(page, 'emails');

    // Back to the shared sender, so that the other tests' mail is delivered.
    await sender.getByRole('radio', { name: /Shared sender/ }).check();
    await sender.getByRole('button', { name: 'Save sender' }).click();
    await sender.getByText('Saved: mail goes through the shared sender.').waitFor();
    expect((await stack.admin.getProject()).config.emailConfig).toEqual({ type: 'shared' });
    await context.close();
  });

  it('keeps the saved SMTP password when the field is left empty, and never shows it', async () => {
    await stack.admin.updateProject({
      config: {
        emailConfig: {
          type: 'standard',
          host: '127.0.0.1',
          port: 2525,
          username: 'mailer',
          password: 'hunter2-secret',
          senderName: 'Shop',
          senderEmail: 'shop@example.com',
        },
      },
    });
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'));
    const sender = page.getByRole('region', { name: 'Sender' });
    const password = sender.getByLabel('Password', { exact: true });
    await password.waitFor();
    expect(await password.inputValue()).toBe('');
    expect(await page.content()).not.toContain('hunter2-secret');
    await sender.getByText('Leave empty to keep the saved password.').waitFor();
    await sender.getByLabel('Sender name', { exact: true }).fill('The Shop');
    await sender.getByRole('button', { name: 'Save sender' }).click();
    await sender.getByText('Saved: mail goes through your SMTP server.').waitFor();
    expect((await stack.admin.getProject()).config.emailConfig).toMatchObject({
      senderName: 'The Shop',
      password: 'hunter2-secret',
    });
    // A new user name needs its password again.
    await sender.getByLabel('Username', { exact: true }).fill('other');
    await sender.getByRole('button', { name: 'Save sender' }).click();
    await sender.getByText('Enter the password: the saved one is kept', { exact: false }).waitFor();
    await stack.admin.updateProject({ config: { emailConfig: { type: 'shared' } } });
    await context.close();
  });

  it('switches the new-device alert on and off, and lists its template', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'));
    await page.getByRole('heading', { level: 1, name: 'E-mail' }).waitFor();
    const alert = page.getByRole('region', { name: 'Alerts' }).getByRole('switch', { name: 'New-device alert' });
    // The development project starts with it off.
    expect(await alert.getAttribute('aria-checked')).toBe('false');
    await alert.click();
    await expect.poll(async () => (await stack.admin.getProject()).config.newDeviceAlertEnabled).toBe(true);
    await page.reload();
    await expect.poll(() => alert.getAttribute('aria-checked')).toBe('true');
    await alert.click();
    await expect.poll(async () => (await stack.admin.getProject()).config.newDeviceAlertEnabled).toBe(false);
    const templates = page.getByRole('region', { name: 'Templates' });
    await templates.getByRole('row').filter({ hasText: 'New-device alert' }).waitFor();
    await context.close();
  });

  it('fits a 360 px wide screen', async () => {
    const { context, page } = await signedInPage(stack, stack.projectUrl('/emails'), {
      viewport: { width: 360, height: 800 },
    });
    await page.getByRole('heading', { level: 2, name: 'Sent mail' }).waitFor();
    await page.getByRole('button', { name: 'Edit Magic link' }).click();
    await page.getByTitle('Preview of the magic link e-mail').waitFor();
    await page.getByRole('radio', { name: /Own SMTP server/ }).check();
    await page.getByLabel('Host', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });
});
