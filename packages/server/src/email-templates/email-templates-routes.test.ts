/**
 * E-mail templates over HTTP: list, read, edit, reset and preview; the
 * official SDK's body; every refused document leaving the templates as they
 * were; one project's edits invisible to another; admin access only; and the
 * mails the flows queue following the edits.
 */
import { headers as h } from '@latchkey/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError, expectStatusRefusal, newEmail } from '../test-support/api.js';
import { otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import { lastMailTo } from '../test-support/mail.js';
import { defaultTemplate } from './default-templates.js';
import { emailTemplateTypes } from './template-types.js';

// Fresh rate-limit windows for the flows that queue mail.
const service = testServiceForSuite({ projectConfig: { magic_link_enabled: true }, freshWindows: true });
const other = otherProjectForSuite(service);

const admin = () => authHeaders(service, 'admin');
const otherAdmin = () => ({
  ...authHeaders(service, 'admin'),
  [h.projectId]: other.projectId,
  [h.publishableClientKey]: other.keys.publishableClientKey,
  [h.secretServerKey]: other.keys.secretServerKey,
  [h.superSecretAdminKey]: other.keys.superSecretAdminKey,
});
const list = (headers = admin()) => call(service, 'GET', '/email-templates', { headers });
const get = (type: string, headers = admin()) => call(service, 'GET', `/email-templates/${type}`, { headers });
const patch = (type: string, json: unknown, headers = admin()) =>
  call(service, 'PATCH', `/email-templates/${type}`, { headers, json });
const reset = (type: string, headers = admin()) => call(service, 'DELETE', `/email-templates/${type}`, { headers });
const preview = (type: string, json: unknown = {}, headers = admin()) =>
  call(service, 'POST', `/email-templates/${type}/preview`, { headers, json });

/** Every stored template row of every project: what a refused request must leave alone. */
const rows = () =>
  dbOf(service.storage).selectFrom('email_templates').selectAll().orderBy('project_id').orderBy('type').execute();

/** The SDK's own body for `updateEmailTemplate` (vector seq 214 of protocol-requests.jsonl). */
const sdkVector = {
  subject: 'Your sign-in link',
  content: { schemaVersion: 5, root: { type: 'EmailLayout', data: { childrenIds: [] } } },
};

/** A small valid password-reset document with the blocks given after the layout. */
function doc(children: string[], blocks: Record<string, unknown>) {
  return { root: { type: 'EmailLayout', data: { childrenIds: children } }, ...blocks };
}
const text = (value: string) => ({ type: 'Text', data: { props: { text: value } } });
const button = (url: string) => ({ type: 'Button', data: { props: { text: 'Go', url } } });

afterAll(async () => {
  // Leave nothing for other suites sharing a PostgreSQL database (each test service drops its own anyway).
  for (const type of emailTemplateTypes) await reset(type);
});

describe('GET /email-templates', () => {
  it('lists the five types with their defaults, in the documented shape', async () => {
    await reset('magic_link');
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body.is_paginated).toBe(false);
    expect(answer.body.items.map((item: { type: string }) => item.type)).toEqual([...emailTemplateTypes]);
    for (const item of answer.body.items) {
      const builtIn = defaultTemplate(item.type);
      expect(item).toEqual({ type: item.type, subject: builtIn.subject, content: builtIn.content, is_default: true });
      expect(item.subject).toContain('{{ projectDisplayName }}');
    }
  });

  it('answers one template by type', async () => {
    const one = await get('password_reset');
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await list()).body.items[1]);
  });
});

describe('PATCH /email-templates/{type}', () => {
  it("accepts the official SDK's body, keeps other types and projects at their defaults, and mails with it", async () => {
    const answer = await patch('magic_link', sdkVector);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ type: 'magic_link', ...sdkVector, is_default: false });
    const items = (await list()).body.items;
    expect(items.map((item: { is_default: boolean }) => item.is_default)).toEqual([true, true, false, true, true]);
    expect((await list(otherAdmin())).body.items.every((item: { is_default: boolean }) => item.is_default)).toBe(true);

    // The empty layout sends the default body under the edited subject.
    const email = newEmail('magic');
    const sent = await call(service, 'POST', '/auth/otp/send-sign-in-code', {
      headers: authHeaders(service),
      json: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
    });
    expect(sent.status, sent.text).toBe(200);
    const mail = await lastMailTo(service, email);
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.text).toMatch(/^[0-9A-Z]{6}$/m);
    expect(mail.text).toContain(`?code=${mail.text.match(/^([0-9A-Z]{6})$/m)![1]!.toLowerCase()}${sent.body.nonce}`);
    await reset('magic_link');
  });

  it('keeps the stored body when only the subject changes, and the subject when only the body does', async () => {
    const subjectOnly = await patch('password_reset', { subject: 'Reset it, {{userDisplayName}}' });
    expect(subjectOnly.body).toEqual({
      type: 'password_reset',
      subject: 'Reset it, {{userDisplayName}}',
      content: defaultTemplate('password_reset').content,
      is_default: false,
    });
    const content = doc(['a', 'b'], {
      a: text('Hello from {{ projectDisplayName }}'),
      b: button('{{ passwordResetLink }}'),
    });
    const bodyOnly = await patch('password_reset', { content });
    expect(bodyOnly.body).toEqual({
      type: 'password_reset',
      subject: 'Reset it, {{userDisplayName}}',
      content,
      is_default: false,
    });
    expect((await get('password_reset')).body).toEqual(bodyOnly.body);
    const unchanged = await rows();
    expect((await patch('password_reset', {})).body).toEqual(bodyOnly.body);
    expect(await rows()).toEqual(unchanged);
    await reset('password_reset');
  });

  it("leaves another project's template alone, and the other project's edit leaves ours alone", async () => {
    await patch('team_invitation', { subject: 'Ours: {{ teamDisplayName }}' });
    const theirs = await patch('team_invitation', { subject: 'Theirs: {{ teamDisplayName }}' }, otherAdmin());
    expect(theirs.body.subject).toBe('Theirs: {{ teamDisplayName }}');
    expect((await get('team_invitation')).body.subject).toBe('Ours: {{ teamDisplayName }}');
    expect((await reset('team_invitation', otherAdmin())).body).toEqual({ success: true });
    expect((await get('team_invitation')).body.subject).toBe('Ours: {{ teamDisplayName }}');
    expect((await get('team_invitation', otherAdmin())).body.is_default).toBe(true);
    await reset('team_invitation');
  });

  const deep = (levels: number) => {
    const blocks: Record<string, unknown> = { leaf: text('x') };
    let child = 'leaf';
    for (let index = 0; index < levels; index++) {
      blocks[`c${index}`] = { type: 'Container', data: { props: { childrenIds: [child] } } };
      child = `c${index}`;
    }
    return doc([child], blocks);
  };
  const large = Object.fromEntries(Array.from({ length: 15 }, (_, index) => [`b${index}`, text('x'.repeat(5000))]));
  const many = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`b${index}`, text('x')]));

  it.each([
    ['an unknown placeholder', { content: doc(['a'], { a: text('Hi {{ usrName }}') }) }, 'usrName'],
    ['a placeholder of another type', { content: doc(['a'], { a: text('{{ otp }}') }) }, 'otp'],
    ['an unknown placeholder in the subject', { subject: 'Hi {{ name }}' }, 'body.subject'],
    ['a broken placeholder', { content: doc(['a'], { a: text('Hi {{ userDisplayName') }) }, '"{{"'],
    ['a button to an arbitrary URL', { content: doc(['a'], { a: button('https://evil.example.com/reset') }) }, 'url'],
    ["a button to another type's link", { content: doc(['a'], { a: button('{{ magicLink }}') }) }, 'url'],
    ['a button with text around its link', { content: doc(['a'], { a: button('x{{ passwordResetLink }}') }) }, 'url'],
    ['a line break in the subject', { subject: 'Reset\r\nBcc: someone@example.com' }, 'one line'],
    ['an empty subject', { subject: '   ' }, 'body.subject'],
    ['an unknown block type', { content: doc(['a'], { a: { type: 'Html', data: { props: { text: '<b>' } } } }) }, 'a'],
    [
      'an unknown field',
      { content: doc(['a'], { a: { type: 'Text', data: { props: { text: 'x', html: '<b>' } } } }) },
      'html',
    ],
    ['a child that does not exist', { content: doc(['a', 'missing'], { a: text('x') }) }, 'missing'],
    ['a block used twice', { content: doc(['a', 'a'], { a: text('x') }) }, 'twice'],
    [
      'a cycle',
      {
        content: doc(['a'], {
          a: { type: 'Container', data: { props: { childrenIds: ['b'] } } },
          b: { type: 'Container', data: { props: { childrenIds: ['a'] } } },
        }),
      },
      'twice',
    ],
    ['a block in no layout', { content: doc([], { a: text('x') }) }, 'no layout'],
    ['containers nested too deep', { content: deep(5) }, 'nest'],
    ['too many blocks', { content: doc(Object.keys(many), many) }, '100'],
    ['too long a text', { content: doc(['a'], { a: text('x'.repeat(5001)) }) }, 'a.data.props.text'],
    ['too large a document', { content: doc(Object.keys(large), large) }, '65536 bytes'],
    [
      'a colour that is CSS',
      { content: { root: { type: 'EmailLayout', data: { childrenIds: [], canvasColor: 'red;x:url(y)' } } } },
      'colour',
    ],
    ['a root that is not a layout', { content: { root: text('x') } }, 'root'],
    ['no root', { content: { a: text('x') } }, 'root'],
    ['content that is not a document', { content: [1, 2] }, 'content'],
    ['content that is a string', { content: '<p>hi</p>' }, 'content'],
    ['an unknown field in the body', { subject: 'x', html: '<p>' }, 'html'],
  ])('refuses %s and changes nothing', async (_name, body, mentioned) => {
    await patch('password_reset', { subject: 'Kept: {{ projectDisplayName }}' });
    const before = await rows();
    const refused = await patch('password_reset', body);
    expectKnownError(refused, 'SCHEMA_ERROR', 400);
    expect(refused.body.error).toContain(mentioned);
    expect(await rows()).toEqual(before);
    // The preview checks unsaved edits the same way.
    expectKnownError(await preview('password_reset', body), 'SCHEMA_ERROR', 400);
    await reset('password_reset');
  });

  it('tells which variables a type knows', async () => {
    const refused = await patch('magic_link', { content: doc(['a'], { a: text('{{ code }}') }) });
    expect(refused.body.error).toContain('known: projectDisplayName, userDisplayName, otp, magicLink');
  });

  it('accepts every block type with its options, nested', async () => {
    const content = {
      schemaVersion: 5,
      root: {
        type: 'EmailLayout',
        data: { childrenIds: ['h', 'box', 'hr', 'gap'], previewText: 'Code {{ otp }}', backdropColor: '#000000' },
      },
      h: { type: 'Heading', data: { props: { text: 'Sign in', level: 'h2' }, style: { textAlign: 'center' } } },
      box: {
        type: 'Container',
        data: { props: { childrenIds: ['t', 'code', 'go'] }, style: { backgroundColor: '#eeeeee' } },
      },
      t: {
        type: 'Text',
        data: { props: { text: 'Hi {{userDisplayName}}\nhere' }, style: { fontSize: 14, color: '#333333' } },
      },
      code: { type: 'Code', data: { props: { text: '{{ otp }}' } } },
      go: {
        type: 'Button',
        data: { props: { text: 'Open', url: ' {{ magicLink }} ' }, style: { backgroundColor: '#111111' } },
      },
      hr: { type: 'Divider', data: {} },
      gap: { type: 'Spacer', data: { props: { height: 24 } } },
    };
    const saved = await patch('magic_link', { content });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.content).toEqual(content);
    await reset('magic_link');
  });

  it("accepts the builder document the reference's dashboard saves: font family, nulls, padding, button colours", async () => {
    const pad = { top: 8, bottom: 16, right: 24, left: 24 };
    const content = {
      root: {
        type: 'EmailLayout',
        data: {
          backdropColor: '#F5F5F5',
          canvasColor: '#FFFFFF',
          textColor: '#262626',
          fontFamily: 'BOOK_SERIF',
          childrenIds: ['block_head', 'block_text', 'block_go', 'block_rule', 'block_box'],
        },
      },
      block_head: {
        type: 'Heading',
        data: {
          props: { text: 'Reset your password at {{ projectDisplayName }}', level: 'h3' },
          style: {
            color: '#000000',
            backgroundColor: null,
            fontFamily: null,
            fontWeight: 'bold',
            textAlign: 'center',
            padding: pad,
          },
        },
      },
      block_text: {
        type: 'Text',
        data: {
          style: {
            color: '#474849',
            backgroundColor: null,
            fontSize: 14,
            fontFamily: 'MONOSPACE',
            fontWeight: 'normal',
            textAlign: 'center',
            padding: pad,
          },
          props: { text: 'Hi {{ userDisplayName }}, follow the button.' },
        },
      },
      block_go: {
        type: 'Button',
        data: {
          style: {
            backgroundColor: null,
            fontSize: 14,
            fontFamily: null,
            fontWeight: 'bold',
            textAlign: 'center',
            padding: pad,
          },
          props: {
            buttonBackgroundColor: '#F0F0F0',
            buttonStyle: 'rounded',
            buttonTextColor: '#000000',
            fullWidth: false,
            size: 'medium',
            text: 'Reset my password',
            url: '{{ passwordResetLink }}',
          },
        },
      },
      block_rule: {
        type: 'Divider',
        data: { props: { lineColor: '#EEEEEE', lineHeight: 1 }, style: { padding: pad, backgroundColor: null } },
      },
      block_box: {
        type: 'Container',
        data: {
          props: { childrenIds: [] },
          style: { backgroundColor: '#FAFAFA', borderColor: '#DDDDDD', borderRadius: 4, padding: pad },
        },
      },
    };
    const saved = await patch('password_reset', { content });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.content).toEqual(content);
    const shown = await preview('password_reset');
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.html).toContain('Palatino Linotype');
    expect(shown.body.html).toContain('Courier New');
    expect(shown.body.html).toContain('#F0F0F0');
    expect(shown.body.html).toContain('8px 24px 16px 24px');
    await reset('password_reset');
  });

  it.each([
    ['a font family the builder does not offer', { fontFamily: 'COMIC_SANS' }],
    ['padding missing a side', { padding: { top: 1, bottom: 1, left: 1 } }],
    ['a font weight other than bold or normal', { fontWeight: 'heavy' }],
  ])('refuses %s with SCHEMA_ERROR', async (_, style) => {
    const content = doc(['a'], { a: { type: 'Text', data: { props: { text: 'x' }, style } } });
    expectKnownError(await patch('password_reset', { content }), 'SCHEMA_ERROR', 400);
  });
});

describe('DELETE /email-templates/{type}', () => {
  it('goes back to the default, and succeeds on a type never edited', async () => {
    await patch('email_verification', { subject: 'Edited' });
    expect((await get('email_verification')).body.is_default).toBe(false);
    const answer = await reset('email_verification');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect((await get('email_verification')).body).toEqual({
      type: 'email_verification',
      ...defaultTemplate('email_verification'),
      is_default: true,
    });
    expect((await reset('email_verification')).body).toEqual({ success: true });
  });
});

describe('POST /email-templates/{type}/preview', () => {
  it('renders the stored template with sample values', async () => {
    const answer = await preview('magic_link');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.subject).toBe('Sign in to Test project');
    expect(answer.body.html).toContain('K7QX2M');
    expect(answer.body.html).toContain('href="https://example.com/handler/magic-link-callback?code=sample-code"');
    expect(answer.body.text).toContain('Hi Alex Example,');
    expect(answer.body.text).toContain('https://example.com/handler/magic-link-callback?code=sample-code');

    await patch('magic_link', { subject: 'Stored subject' });
    expect((await preview('magic_link')).body.subject).toBe('Stored subject');
    await reset('magic_link');
  });

  it('renders unsaved edits without saving them', async () => {
    const before = await rows();
    const answer = await preview('team_invitation', {
      subject: 'Join {{ teamDisplayName }} now',
      content: doc(['a', 'b'], { a: text('Unsaved words'), b: button('{{ teamInvitationLink }}') }),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.subject).toBe('Join “Design Team” now'); // a name another user wrote is quoted in a subject
    expect(answer.body.html).toContain('Unsaved words');
    expect(answer.body.text).toBe(
      'Unsaved words\n\nGo:\nhttps://example.com/handler/team-invitation?code=sample-code\n',
    );
    expect(await rows()).toEqual(before);
    expect((await get('team_invitation')).body.is_default).toBe(true);
  });
});

describe('who may use the templates', () => {
  it.each(['client', 'server'] as const)('refuses %s access on every route, changing nothing', async (access) => {
    const before = await rows();
    const headers = authHeaders(service, access);
    for (const answer of [
      await list(headers),
      await get('magic_link', headers),
      await patch('magic_link', { subject: 'Hijacked' }, headers),
      await reset('magic_link', headers),
      await preview('magic_link', {}, headers),
    ]) {
      expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    expect(await rows()).toEqual(before);
  });

  it('answers an unknown type with SCHEMA_ERROR on every route', async () => {
    const before = await rows();
    for (const answer of [
      await get('welcome'),
      await patch('welcome', { subject: 'x' }),
      await reset('welcome'),
      await preview('welcome'),
    ]) {
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
      expect(answer.body.error).toContain('params.type');
    }
    expect(await rows()).toEqual(before);
  });
});

describe('templates under the shared e-mail config, where shared mail leaves the machine', () => {
  // The operator's SMTP server sends shared mail (nothing is sent here: no flow runs).
  const sending = testServiceForSuite({ smtpUrl: 'smtp://127.0.0.1:9' });
  const sendingAdmin = () => authHeaders(sending, 'admin');
  const refusal =
    'Cannot update email templates in shared email config. Set up a custom email config to update email templates.';

  it('refuses an edit as plain text, whatever the body, and keeps the default', async () => {
    for (const json of [{ subject: 'Custom reset', content: {} }, { subject: 'Custom reset' }]) {
      const response = await call(sending, 'PATCH', '/email-templates/password_reset', {
        headers: sendingAdmin(),
        json,
      });
      expectStatusRefusal(response, 400, refusal);
    }
    const after = await call(sending, 'GET', '/email-templates/password_reset', { headers: sendingAdmin() });
    expect(after.body.is_default).toBe(true);
  });

  it('still refuses a client first, and allows the edit once the project sends through its own server', async () => {
    const asClient = await call(sending, 'PATCH', '/email-templates/password_reset', {
      headers: authHeaders(sending, 'client'),
      json: { subject: 'x' },
    });
    expectKnownError(asClient, 'INSUFFICIENT_ACCESS_TYPE', 401);
    const own = {
      type: 'standard',
      host: 'smtp.example.com',
      port: 587,
      username: 'mailer',
      password: 'a-password',
      sender_name: 'Example',
      sender_email: 'noreply@example.com',
    };
    const config = await call(sending, 'PATCH', '/projects/current', {
      headers: sendingAdmin(),
      json: { config: { email_config: own } },
    });
    expect(config.status, config.text).toBe(200);
    const edited = await call(sending, 'PATCH', '/email-templates/password_reset', {
      headers: sendingAdmin(),
      json: { subject: 'Custom reset' },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.subject).toBe('Custom reset');

    // Back to the shared sender while an edited template exists: refused, the own server kept.
    const back = await call(sending, 'PATCH', '/projects/current', {
      headers: sendingAdmin(),
      json: { config: { email_config: { type: 'shared' } } },
    });
    expectStatusRefusal(
      back,
      400,
      'Cannot change email service type to shared when custom templates are defined. Disable custom templates ' +
        'first, before changing the email service type.',
    );
    const project = await call(sending, 'GET', '/projects/current', { headers: sendingAdmin() });
    expect(project.body.config.email_config.type).toBe('standard');
    // Once the template is reset, the switch goes through.
    await call(sending, 'DELETE', '/email-templates/password_reset', { headers: sendingAdmin() });
    const again = await call(sending, 'PATCH', '/projects/current', {
      headers: sendingAdmin(),
      json: { config: { email_config: { type: 'shared' } } },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.config.email_config).toEqual({ type: 'shared' });
  });
});
