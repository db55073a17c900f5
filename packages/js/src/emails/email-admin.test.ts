/**
 * `AdminApp`'s e-mail administration against the real service (in-process):
 * the templates (list, edit, preview, reset), a test mail through an SMTP
 * server that is not there, and the delivery status of the project's mails.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestAdminApp, createTestServerApp } from '../test-support/server-apps.js';
import { createTestApp, newCredentials, useTestService } from '../test-support/service.js';

const service = useTestService();

const templateTypes = ['email_verification', 'magic_link', 'new_device_sign_in', 'password_reset', 'team_invitation'];

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('AdminApp e-mail templates', { timeout: 30_000 }, () => {
  it('lists the five types, defaults until edited', async () => {
    const { app } = createTestAdminApp(service());
    const templates = await app.listEmailTemplates();
    expect(templates.map((template) => template.type).sort()).toEqual(templateTypes);
    for (const template of templates) {
      expect(template).toMatchObject({ isDefault: true, subject: expect.any(String) });
      expect(template.subject).not.toBe('');
    }
  });

  it('edits a subject, previews unsaved edits without saving them, and resets to the default', async () => {
    const { app } = createTestAdminApp(service());
    const before = (await app.listEmailTemplates()).find((template) => template.type === 'password_reset')!;

    const preview = await app.previewEmailTemplate('password_reset', {
      subject: 'Preview for {{ projectDisplayName }}',
    });
    expect(preview.subject).toBe('Preview for Test project');
    expect(preview.html).toContain('<');
    expect(preview.text).not.toBe('');
    expect((await app.listEmailTemplates()).find((t) => t.type === 'password_reset')).toEqual(before);

    const updated = await app.updateEmailTemplate('password_reset', { subject: 'Forgot it? {{ projectDisplayName }}' });
    expect(updated).toMatchObject({
      type: 'password_reset',
      subject: 'Forgot it? {{ projectDisplayName }}',
      isDefault: false,
    });
    expect((await app.listEmailTemplates()).find((t) => t.type === 'password_reset')).toEqual(updated);
    expect((await app.previewEmailTemplate('password_reset')).subject).toBe('Forgot it? Test project');

    await app.resetEmailTemplate('password_reset');
    expect((await app.listEmailTemplates()).find((t) => t.type === 'password_reset')).toEqual(before);
  });

  it('throws a refused edit as a KnownError and keeps the template', async () => {
    const { app } = createTestAdminApp(service());
    const before = await app.listEmailTemplates();
    await expect(
      app.updateEmailTemplate('magic_link', { subject: 'Hello {{ noSuchVariable }}' }),
    ).rejects.toMatchObject({ code: 'SCHEMA_ERROR' });
    expect(await app.listEmailTemplates()).toEqual(before);
  });
});

describe('AdminApp e-mail delivery', { timeout: 30_000 }, () => {
  it('answers a test mail through an SMTP server that is down with its error, not a throw', async () => {
    const { app } = createTestAdminApp(service());
    const result = await app.sendTestEmail({
      recipientEmail: 'ops@example.com',
      emailConfig: {
        host: '127.0.0.1',
        port: await closedPort(),
        username: 'mailer',
        password: 'smtp-secret-1',
        senderEmail: 'auth@example.com',
        senderName: 'Test project',
      },
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errorMessage).toMatch(/ECONNREFUSED|connect/i);
    expect(result.errorMessage).not.toContain('smtp-secret-1');
  });

  it('lists the project’s mails newest first, with their delivery status, at most `limit`', async () => {
    const email = newCredentials().email;
    const { app: client } = createTestApp(service());
    await client.signUpWithCredential({ email, password: 'correct-horse-1', noRedirect: true });
    const { app: server } = createTestServerApp(service());
    const callbackUrl = 'http://localhost:3000/handler/password-reset';
    await server.sendForgotPasswordEmail(email, { callbackUrl });
    await server.sendForgotPasswordEmail(email, { callbackUrl });

    const { app } = createTestAdminApp(service());
    const mails = (await app.listSentEmails()).filter((mail) => mail.recipient === email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail).toMatchObject({ kind: 'password_reset', lastError: null });
      expect(['queued', 'sending', 'sent']).toContain(mail.status);
      expect(mail.createdAt).toBeInstanceOf(Date);
    }
    expect(await app.listSentEmails({ limit: 1 })).toHaveLength(1);
    await expect(app.listSentEmails({ limit: 0 })).rejects.toMatchObject({ code: 'SCHEMA_ERROR' });
  });
});
