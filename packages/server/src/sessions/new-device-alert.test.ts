/**
 * The new-device alert over HTTP: a sign-in from a browser the account has
 * not used queues the `new_device_sign_in` mail (its browser, time and a link
 * to the Sessions section of the app that signed in); the same browser again,
 * after signing out too, queues nothing; nor does an account's first sign-in,
 * a project with the setting off, or a sign-in from a page the project does
 * not trust. The template is edited like the others and the edit is what
 * users get; a bad setting is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { deviceName } from '../common/device.js';
import { authHeaders, call, expectKnownError, goodPassword, newEmail, userHeaders } from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';
import { mailsTo } from '../test-support/mail.js';

const service = testServiceForSuite({ projectConfig: { new_device_alert_enabled: true }, freshWindows: true });

const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const app = 'http://localhost:3000';

/** A user with a verified primary address and a password, made by server code (no sign-in on record yet). */
async function newUser(): Promise<{ email: string; id: string }> {
  const email = newEmail('alerted');
  const answer = await call(service, 'POST', '/users', {
    headers: authHeaders(service, 'server'),
    json: {
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: goodPassword,
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return { email, id: answer.body.id };
}

/** A password sign-in from a browser (its user agent) on a page (`Origin`). */
async function signIn(email: string, userAgent: string, origin = app) {
  const answer = await call(service, 'POST', '/auth/password/sign-in', {
    headers: { ...authHeaders(service), 'user-agent': userAgent, origin },
    json: { email, password: goodPassword },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { access_token: string; refresh_token: string };
}

const alertsTo = async (email: string) =>
  (await mailsTo(service, email)).filter((mail) => mail.kind === 'new_device_sign_in');

const setAlerts = async (on: boolean) => {
  const answer = await call(service, 'PATCH', '/projects/current', {
    headers: authHeaders(service, 'admin'),
    json: { config: { new_device_alert_enabled: on } },
  });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.config.new_device_alert_enabled).toBe(on);
};

describe('the new-device alert', () => {
  it('is queued for a sign-in from a new browser, and not for a second sign-in from the same one', async () => {
    const { email } = await newUser();
    await signIn(email, chrome);
    // The account's first sign-in: nothing to compare it with.
    expect(await alertsTo(email)).toEqual([]);

    await signIn(email, firefox);
    const [alert, ...more] = await alertsTo(email);
    expect(more).toEqual([]);
    expect(alert!.subject).toBe('New sign-in to your Test project account');
    for (const part of [alert!.text, alert!.html]) {
      expect(part).toContain('Firefox on Windows');
      expect(part).toContain(`${app}/handler/account-settings#sessions`);
      expect(part).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    }

    await signIn(email, firefox);
    await signIn(email, chrome);
    expect(await alertsTo(email)).toHaveLength(1);
  });

  it('remembers a browser the account signed out of', async () => {
    const { email } = await newUser();
    await signIn(email, chrome);
    const tokens = await signIn(email, safari);
    expect(await alertsTo(email)).toHaveLength(1);
    const signOut = await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, tokens) });
    expect(signOut.status, signOut.text).toBe(200);
    await signIn(email, safari);
    expect(await alertsTo(email)).toHaveLength(1);
  });

  it('is not sent for a sign-up', async () => {
    const email = newEmail('new');
    const answer = await call(service, 'POST', '/auth/password/sign-up', {
      headers: { ...authHeaders(service), 'user-agent': firefox, origin: app },
      json: { email, password: goodPassword },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await alertsTo(email)).toEqual([]);
  });

  it('sends nothing while the setting is off', async () => {
    const { email } = await newUser();
    await signIn(email, chrome);
    await setAlerts(false);
    try {
      await signIn(email, firefox);
      await signIn(email, safari);
    } finally {
      await setAlerts(true);
    }
    expect(await alertsTo(email)).toEqual([]);
  });

  it('never links a page the project does not trust', async () => {
    const { email } = await newUser();
    await signIn(email, chrome);
    // No trusted domain, and the page is not on localhost: there is no page of the app to link.
    await signIn(email, firefox, 'https://evil.example');
    expect(await alertsTo(email)).toEqual([]);
  });

  it('is rendered from the edited template, as the other types are', async () => {
    const admin = authHeaders(service, 'admin');
    const listed = await call(service, 'GET', '/email-templates', { headers: admin });
    expect(listed.body.items.map((item: { type: string }) => item.type)).toContain('new_device_sign_in');
    const template = await call(service, 'GET', '/email-templates/new_device_sign_in', { headers: admin });
    const edit = await call(service, 'PATCH', '/email-templates/new_device_sign_in', {
      headers: admin,
      json: { subject: 'Was this you? {{ browser }}', content: template.body.content },
    });
    expect(edit.status, edit.text).toBe(200);
    try {
      const { email } = await newUser();
      await signIn(email, chrome);
      await signIn(email, safari);
      const [alert] = await alertsTo(email);
      // The browser is the client's words: quoted in a subject, as a team's name is.
      expect(alert!.subject).toBe('Was this you? “Safari on iOS”');
    } finally {
      await call(service, 'DELETE', '/email-templates/new_device_sign_in', { headers: admin });
    }
  });

  it('refuses a setting that is not a boolean, and leaves it as it was', async () => {
    const answer = await call(service, 'PATCH', '/projects/current', {
      headers: authHeaders(service, 'admin'),
      json: { config: { new_device_alert_enabled: 'yes' } },
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    const project = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    expect(project.body.config.new_device_alert_enabled).toBe(true);
  });
});

describe('deviceName', () => {
  it.each([
    [firefox, 'Firefox on Windows'],
    [chrome, 'Chrome on Linux'],
    [safari, 'Safari on iOS'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Microsoft Edge on macOS',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s: %s', (userAgent, name) => {
    expect(deviceName(userAgent)).toBe(name);
  });
});
