/**
 * Rendering: every default carries the project's name, the link and (magic
 * link) the code in HTML and text; hostile names stay text; no value can put
 * a line break into a subject; an edited template is what the flows queue;
 * and how long one mail takes to render.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findProject, type ProjectRecord } from '../projects/projects.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, signUp, userHeaders } from '../test-support/api.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';
import { defaultTemplate } from './default-templates.js';
import { saveTemplate } from './email-template-store.js';
import { renderEmail, renderTemplate } from './render-email.js';
import { emailTemplateTypes, sampleVariables } from './template-types.js';

let service: TestService;
let project: ProjectRecord;
beforeAll(async () => {
  service = await startTestService({ projectConfig: { magic_link_enabled: true } });
  project = (await findProject(dbOf(service.storage), service.projectId))!;
});
afterAll(() => service?.close());
beforeEach(() => service.clock.startWindow(10 * 60_000));

const hostile = '<img src=x onerror=alert(1)>';
const admin = () => authHeaders(service, 'admin');

describe('the defaults', () => {
  it.each(emailTemplateTypes)(
    '%s: HTML and text carry the project, the greeting, the link and the code',
    async (type) => {
      const variables = sampleVariables[type];
      const mail = await renderEmail(dbOf(service.storage), project, type, variables);
      const link = Object.values(variables).find((value) => value?.startsWith('https://'))!;
      expect(mail.subject).toContain('Test project');
      expect(mail.subject).not.toContain('{{');
      for (const part of [mail.html, mail.text]) {
        expect(part).toContain('Test project');
        expect(part).toContain('Hi Alex Example,');
        expect(part).toContain(link);
        expect(part).toContain('ignore this e-mail');
        expect(part).not.toContain('{{');
      }
      expect(mail.html).toContain(`href="${link}"`);
      expect(mail.html).toMatch(/^<!DOCTYPE html/);
      expect(mail.html).toContain('role="presentation"');
      if (type === 'magic_link') {
        expect(mail.html).toMatch(/letter-spacing:6px[^>]*>K7QX2M</);
        expect(mail.text).toContain('\n\nK7QX2M\n\n');
      }
    },
  );

  it('leaves the greeting out when the name is unknown', async () => {
    const mail = await renderTemplate(project, 'password_reset', defaultTemplate('password_reset'), {
      userDisplayName: null,
      passwordResetLink: 'https://app.example.com/reset?code=abc',
    });
    expect(mail.text).not.toContain('Hi');
    expect(mail.html).not.toContain('Hi ');
    expect(mail.text).toContain('Reset your password\n\nSomeone asked');
  });
});

describe('hostile values', () => {
  const hostileProject = () => ({ ...project, displayName: `${hostile} & "Co"\r\nBcc: a@evil.example.com` });

  it('renders names as text in HTML, text and subject', async () => {
    const source = { ...defaultTemplate('magic_link'), subject: '{{ userDisplayName }} / {{ projectDisplayName }}' };
    const mail = await renderTemplate(hostileProject(), 'magic_link', source, {
      userDisplayName: hostile,
      magicLink: 'https://app.example.com/cb?code=abc',
      otp: 'ABC123',
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('&amp; &quot;Co&quot;');
    expect(mail.text).toContain(`Hi ${hostile},`);
    expect(mail.subject).toBe(`${hostile} / ${hostile} & "Co" Bcc: a@evil.example.com`);
  });

  it.each([
    ['CR LF', 'Ann\r\nBcc: a@evil.example.com'],
    ['a lone LF', 'Ann\nBcc: a@evil.example.com'],
    ['a lone CR', 'Ann\rBcc: a@evil.example.com'],
    ['a line separator', 'Ann\u2028Bcc: a@evil.example.com'],
    ['NEL', 'Ann\u0085Bcc: a@evil.example.com'],
  ])('never lets %s into a subject', async (_name, name) => {
    const source = { ...defaultTemplate('password_reset'), subject: 'Hi {{ userDisplayName }}' };
    const mail = await renderTemplate(project, 'password_reset', source, {
      userDisplayName: name,
      passwordResetLink: 'https://app.example.com/reset?code=abc',
    });
    expect(mail.subject).toBe('Hi Ann Bcc: a@evil.example.com');
  });

  it('refuses a link that is not http(s), whatever the flow passed', async () => {
    await expect(
      renderTemplate(project, 'password_reset', defaultTemplate('password_reset'), {
        userDisplayName: null,
        passwordResetLink: 'javascript:alert(1)',
      }),
    ).rejects.toThrow('not http(s)');
  });
});

describe('what the flows queue', () => {
  it('uses the edited template, with a hostile name as text, until it is reset', async () => {
    const user = await signUp(service);
    const named = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { display_name: `${hostile}\r\nBcc: a@evil.example.com` },
    });
    expect(named.status, named.text).toBe(200);
    const edited = await call(service, 'PATCH', '/email-templates/password_reset', {
      headers: admin(),
      json: {
        subject: 'New password for {{ userDisplayName }}',
        content: {
          root: { type: 'EmailLayout', data: { childrenIds: ['a', 'b'] } },
          a: { type: 'Text', data: { props: { text: 'Custom words for {{ userDisplayName }}' } } },
          b: { type: 'Button', data: { props: { text: 'Reset', url: '{{ passwordResetLink }}' } } },
        },
      },
    });
    expect(edited.status, edited.text).toBe(200);
    const sendReset = () =>
      call(service, 'POST', '/auth/password/send-reset-code', {
        headers: authHeaders(service),
        json: { email: user.email, callback_url: 'http://localhost:3000/handler/password-reset' },
      });

    expect((await sendReset()).status).toBe(200);
    const mail = await lastMailTo(service, user.email);
    expect(mail.kind).toBe('password_reset');
    expect(mail.subject).toBe(`New password for ${hostile} Bcc: a@evil.example.com`);
    expect(mail.text).toContain(`Custom words for ${hostile} Bcc: a@evil.example.com`);
    expect(mail.html).toContain('Custom words for &lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).not.toContain('<img');
    expect(codeFromMail(mail)).toHaveLength(45);

    await call(service, 'DELETE', '/email-templates/password_reset', { headers: admin() });
    expect((await sendReset()).status).toBe(200);
    const again = await lastMailTo(service, user.email);
    expect(again.subject).toBe('Reset your Test project password');
    expect(again.text).toContain('Choose a new password');
  });

  it('keeps a stored subject to one line even when it was written around the API', async () => {
    await saveTemplate(
      dbOf(service.storage),
      project.id,
      'email_verification',
      {
        subject: 'Line one\r\nBcc: a@evil.example.com\n\n',
        content: defaultTemplate('email_verification').content as never,
      },
      new Date(),
    );
    const mail = await renderEmail(
      dbOf(service.storage),
      project,
      'email_verification',
      sampleVariables.email_verification,
    );
    expect(mail.subject).toBe('Line one Bcc: a@evil.example.com');
    await call(service, 'DELETE', '/email-templates/email_verification', { headers: admin() });
  });

  it('falls back to the default when a stored template no longer validates', async () => {
    await saveTemplate(
      dbOf(service.storage),
      project.id,
      'email_verification',
      { subject: 'Old {{ thing }}', content: { root: { type: 'Legacy' } } },
      new Date(),
    );
    const mail = await renderEmail(
      dbOf(service.storage),
      project,
      'email_verification',
      sampleVariables.email_verification,
    );
    expect(mail.subject).toBe('Verify your e-mail address for Test project');
    expect(mail.text).toContain(sampleVariables.email_verification.emailVerificationLink);
    await call(service, 'DELETE', '/email-templates/email_verification', { headers: admin() });
  });
});

describe('render time', () => {
  it('renders a mail in a few milliseconds', async () => {
    const source = defaultTemplate('magic_link');
    await renderTemplate(project, 'magic_link', source, sampleVariables.magic_link);
    const runs = 200;
    const started = performance.now();
    for (let index = 0; index < runs; index++) {
      await renderTemplate(project, 'magic_link', source, sampleVariables.magic_link);
    }
    const perMail = (performance.now() - started) / runs;
    console.info(`render time per mail (magic_link default, HTML + text): ${perMail.toFixed(2)} ms`);
    expect(perMail).toBeLessThan(50);
  });
});
