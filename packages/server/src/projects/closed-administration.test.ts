/**
 * A production server's administration is closed: nobody signs up to the
 * internal project unless the operator opens it (development stays open), an
 * owner the operator creates signs in and creates projects, each owner's
 * projects are capped, new projects trust only their own domains, the shared
 * development provider is off, the dev service answers loopback names only,
 * and what admins do to mail and projects is in an audit log that outlives
 * the project. On PGlite, and on PostgreSQL when it answers.
 */
import { request } from 'node:http';
import { internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, createApiKeySet, createOwner } from '../operations.js';
import { authHeaders, call, expectKnownError, goodPassword, newEmail, userHeaders } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';
import { authorizeUrl, landing, TestBrowser } from '../testing/oauth-browser.js';

/** The same service seen as the internal project (the dashboard's), with a key set of it. */
async function asInternal(service: TestService): Promise<TestService> {
  const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
  return { ...service, projectId: internalProjectId, keys };
}

const signUpTo = (internal: TestService) =>
  call(internal, 'POST', '/auth/password/sign-up', {
    headers: authHeaders(internal),
    json: { email: newEmail('owner'), password: goodPassword },
  });

describeEachBackend('a closed administration', ({ databaseUrl }) => {
  let service: TestService;
  let internal: TestService;
  beforeAll(async () => {
    // As `latchkey start` runs it: production defaults, internal sign-up as the operator leaves it (closed).
    service = await startTestService({
      databaseUrl,
      development: false,
      internalSignUp: false,
      maxProjectsPerOwner: 3,
    });
    internal = await asInternal(service);
  });
  afterAll(() => service?.close());

  it('refuses sign-up to the internal project on a production start', async () => {
    expectKnownError(await signUpTo(internal), 'SIGN_UP_NOT_ENABLED', 400);
  });

  it('closes an internal project an earlier start left open, unless the operator opens it again', async () => {
    await bootstrap(service.storage, { dev: false, internalSignUp: true });
    expect((await signUpTo(internal)).status).toBe(200);
    await bootstrap(service.storage, { dev: false, internalSignUp: false });
    expectKnownError(await signUpTo(internal), 'SIGN_UP_NOT_ENABLED', 400);
    const [change] = await auditEvents(internal, { type: 'project.updated' });
    expect(change).toMatchObject({ actor: { type: 'operator' }, data: { fields: ['config.sign_up_enabled'] } });
    // Development keeps it open: nothing to set up on a laptop.
    await bootstrap(service.storage, { dev: true });
    expect((await signUpTo(internal)).status).toBe(200);
    await bootstrap(service.storage, { dev: false, internalSignUp: false });
  });

  it('lets an owner the operator created sign in and create a project that trusts no localhost and alerts of new devices', async () => {
    const email = newEmail('invited');
    await createOwner(service.storage, { email, password: goodPassword });
    const signIn = await call(internal, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(internal),
      json: { email, password: goodPassword },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const created = await call(internal, 'POST', '/internal/projects', {
      headers: userHeaders(internal, signIn.body),
      json: { display_name: 'Invited owner’s app' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.config.allow_localhost).toBe(false);
    expect(created.body.config.new_device_alert_enabled).toBe(true);
  });

  it('caps the projects one owner creates, even in a concurrent burst', async () => {
    const email = newEmail('busy');
    await createOwner(service.storage, { email, password: goodPassword });
    const tokens = (
      await call(internal, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(internal),
        json: { email, password: goodPassword },
      })
    ).body;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(internal, 'POST', '/internal/projects', {
          headers: userHeaders(internal, tokens),
          json: { display_name: `Burst ${i}` },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    for (const answer of answers.filter((one) => one.status !== 201)) {
      expectKnownError(answer, 'PROJECT_LIMIT_REACHED', 403);
      expect(answer.body.details).toEqual({ limit: 3 });
    }
    const listed = await call(internal, 'GET', '/internal/projects', { headers: userHeaders(internal, tokens) });
    expect(listed.body.items).toHaveLength(3);
  });

  it('records the SMTP settings changed, by field and never by value', async () => {
    const answer = await call(service, 'PATCH', '/projects/current', {
      headers: authHeaders(service, 'admin'),
      json: {
        config: {
          email_config: {
            type: 'standard',
            host: 'smtp.acme.example',
            port: 587,
            username: 'mailer',
            password: 'smtp-password-7',
            sender_name: 'Acme',
            sender_email: 'noreply@acme.example',
          },
        },
      },
    });
    expect(answer.status, answer.text).toBe(200);
    const [event] = await auditEvents(service, { type: 'project.updated' });
    expect(event?.data).toEqual({ fields: ['config.email_config'] });
    expect(JSON.stringify(event)).not.toContain('smtp-password-7');
  });

  it('records a test e-mail, without its password', async () => {
    const answer = await call(service, 'POST', '/internal/send-test-email', {
      headers: authHeaders(service, 'admin'),
      json: {
        recipient_email: newEmail(),
        email_config: {
          host: '127.0.0.1',
          port: 25,
          username: 'mailer',
          password: 'test-mail-password-3',
          sender_email: 'admin@acme.example',
          sender_name: 'Acme',
        },
      },
    });
    expect(answer.body).toEqual({ success: false, error_message: 'address not allowed' });
    const [event] = await auditEvents(service, { type: 'email.test_sent' });
    expect(event).toMatchObject({
      actor: { type: 'admin' },
      data: { host: '127.0.0.1', port: 25, success: false, failure: 'address not allowed' },
    });
    expect(JSON.stringify(event)).not.toContain('test-mail-password-3');
  });

  it("records a project's deletion in the internal project's log, which outlives it", async () => {
    const doomed = await service.createOtherProject();
    const headers = {
      ...authHeaders(service, 'admin'),
      'x-stack-project-id': doomed.projectId,
      'x-stack-publishable-client-key': doomed.keys.publishableClientKey,
      'x-stack-secret-server-key': doomed.keys.secretServerKey,
      'x-stack-super-secret-admin-key': doomed.keys.superSecretAdminKey,
    };
    expect((await call(service, 'DELETE', '/projects/current', { headers })).status).toBe(200);
    const [event] = await auditEvents(internal, { type: 'project.deleted' });
    expect(event).toMatchObject({
      actor: { type: 'admin' },
      data: { project_id: doomed.projectId, display_name: 'Other project' },
    });
  });
});

describe('the shared development provider on a production server', () => {
  const standIn = { oauth_providers: [{ id: 'github' as const, type: 'shared' as const, enabled: true }] };
  let production: TestService;
  let allowed: TestService;
  beforeAll(async () => {
    production = await startTestService({ development: false, projectConfig: standIn });
    allowed = await startTestService({ development: false, allowDevelopmentProvider: true, projectConfig: standIn });
  });
  afterAll(async () => {
    await production?.close();
    await allowed?.close();
  });

  it('is refused unless the operator allows it', async () => {
    const refused = await new TestBrowser().go(authorizeUrl(production, 'github').url);
    expect(landing(refused.url).params.get('errorCode')).toBe('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    const offered = await new TestBrowser().go(authorizeUrl(allowed, 'github').url);
    expect(offered.url.startsWith(allowed.url)).toBe(true);
    expect(offered.response?.status).toBe(200);
  });
});

/** A GET over a real socket with the `Host` header a rebinding page's browser would send. */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the Host a request names', () => {
  let dev: TestService;
  let production: TestService;
  beforeAll(async () => {
    dev = await startTestService();
    production = await startTestService({ development: false, smtpUrl: 'smtp://127.0.0.1:1' });
  });
  afterAll(async () => {
    await dev?.close();
    await production?.close();
  });

  it('must be a loopback name while the dev mailbox is served (no DNS rebinding onto it)', async () => {
    const mailbox = `${dev.url}/mailbox/api/messages?to=${encodeURIComponent('someone@example.com')}`;
    expect(await getWithHost(mailbox, 'rebind.attacker.example')).toBe(421);
    expect(await getWithHost(`${dev.url}/api/v1/health`, 'rebind.attacker.example:80')).toBe(421);
    for (const host of ['localhost', 'app.localhost:3000', '127.0.0.1', '[::1]:8102']) {
      expect(await getWithHost(mailbox, host), host).toBe(200);
    }
  });

  it('answers a name the developer allowed (a tunnel), and still no other', async () => {
    const tunnelled = await startTestService({ allowedHosts: ['Dev.Example.test'] });
    try {
      const mailbox = `${tunnelled.url}/mailbox/api/messages?to=${encodeURIComponent('someone@example.com')}`;
      expect(await getWithHost(mailbox, 'dev.example.test')).toBe(200);
      expect(await getWithHost(mailbox, 'dev.example.test:443')).toBe(200);
      expect(await getWithHost(mailbox, 'rebind.attacker.example')).toBe(421);
    } finally {
      await tunnelled.close();
    }
  });

  it('is not checked in production', async () => {
    expect(await getWithHost(`${production.url}/api/v1/health`, 'auth.example.com')).toBe(200);
  });
});
