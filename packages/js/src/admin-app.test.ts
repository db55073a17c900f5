/**
 * `AdminApp` and `ProjectOwnerApp` against the real service, in-process (one
 * service for the file): the project (read, every config key updated,
 * production mode, delete), API key sets (created in full once, listed by
 * their last four characters, revoked, expired), metrics, the users module
 * it shares with `ServerApp`, and a project owner's session on the
 * `internal` project (owned projects, admin access tokens).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminApp } from './admin-app.js';
import { ProjectOwnerApp } from './project-owner-app.js';
import { createTestAdminApp, createTestServerApp, internalPublishableKey } from './test-support/server-apps.js';
import { createTestApp, newCredentials, recordingFetch, useTestService } from './test-support/service.js';

const service = useTestService();
const setup = () => createTestAdminApp(service());

/** An admin app on a project of its own, for tests that change or delete the project. */
async function ownProject() {
  const { projectId, keys } = await service().createOtherProject();
  return { ...createTestAdminApp(service(), { projectId, superSecretAdminKey: keys.superSecretAdminKey }), keys };
}

describe('AdminApp options', () => {
  const globals = globalThis as { window?: unknown; document?: unknown };
  afterEach(() => {
    delete globals.window;
    delete globals.document;
  });
  const common = { projectId: 'p', baseUrl: 'https://auth.example' };

  it('requires a super secret admin key or a project owner’s session', () => {
    expect(() => new AdminApp({ ...common, superSecretAdminKey: '' })).toThrow(
      new TypeError('AdminApp: the superSecretAdminKey option is required.'),
    );
    expect(() => new AdminApp({ ...common } as never)).toThrow('AdminApp: the superSecretAdminKey option is required.');
  });

  it('refuses the admin key in a browser, but not an owner’s session (the dashboard)', () => {
    globals.window = {};
    expect(() => new AdminApp({ ...common, superSecretAdminKey: 'sak_x' })).toThrow(
      /AdminApp: the super secret admin key must never reach a browser/,
    );
    const projectOwnerSession = { getTokens: async () => ({ accessToken: null, refreshToken: null }) };
    expect(new AdminApp({ ...common, projectOwnerSession }).projectId).toBe('p');
  });
});

describe('AdminApp project', () => {
  it('reads the admin view with the admin key, and what keeps it out of production mode', async () => {
    const { app, requests } = setup();
    const project = await app.getProject();
    expect(project).toMatchObject({
      id: service().projectId,
      displayName: 'Test project',
      description: '',
      isProductionMode: false,
      config: { allowLocalhost: true, signUpEnabled: true, domains: [], emailConfig: { type: 'shared' } },
    });
    expect(project.userCount).toEqual(expect.any(Number));
    expect(project.productionModeErrors.map((problem) => problem.message)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
    ]);
    expect(requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': service().keys.superSecretAdminKey,
    });
  });

  it('updates names and every config key, and reads them back', async () => {
    const { app } = await ownProject();
    const config = {
      signUpEnabled: false,
      credentialEnabled: false,
      magicLinkEnabled: true,
      passkeyEnabled: true,
      clientTeamCreationEnabled: true,
      clientUserDeletionEnabled: true,
      allowLocalhost: false,
      createTeamOnSignUp: true,
      legacyGlobalJwtSigning: true,
      oauthProviders: [
        { id: 'github', enabled: true, type: 'standard' as const, clientId: 'gh-id', clientSecret: 'gh-secret' },
        { id: 'google', enabled: false, type: 'shared' as const },
      ],
      domains: [{ domain: 'https://shop.example.com', handlerPath: '/auth' }],
      emailConfig: {
        type: 'standard' as const,
        host: 'smtp.example.com',
        port: 587,
        username: 'mailer',
        password: 'smtp-secret',
        senderName: 'Shop',
        senderEmail: 'no-reply@shop.example.com',
      },
      teamCreatorDefaultPermissions: [{ id: 'admin' }],
      teamMemberDefaultPermissions: [{ id: 'member' }],
    };
    const updated = await app.updateProject({ displayName: 'Shop', description: 'The shop', config });
    expect(updated).toMatchObject({ displayName: 'Shop', description: 'The shop', config, productionModeErrors: [] });
    expect(updated.config.oauthProviders.filter((p) => p.enabled).map((p) => p.id)).toEqual(['github']);
    expect(await app.getProject()).toEqual(updated);
    const live = await app.updateProject({ isProductionMode: true });
    expect(live).toMatchObject({ isProductionMode: true, config: { domains: config.domains } });
  });

  it('takes production mode while a check fails, as the reference does, and still names the problem', async () => {
    const { app } = await ownProject();
    await app.updateProject({
      config: { allowLocalhost: false, domains: [{ domain: 'http://shop.example.com', handlerPath: '/h' }] },
    });
    const project = await app.getProject();
    expect(project.productionModeErrors.map((problem) => problem.message)).toEqual([
      'Trusted domains must use HTTPS in production mode: http://shop.example.com',
    ]);
    const live = await app.updateProject({ isProductionMode: true });
    expect(live.isProductionMode).toBe(true);
    expect(live.productionModeErrors.map((problem) => problem.message)).toEqual([
      'Trusted domains must use HTTPS in production mode: http://shop.example.com',
    ]);
  });

  it('lists an enabled provider on shared keys, linked to the sign-in methods page', async () => {
    const { app } = await ownProject();
    const project = await app.updateProject({
      config: { allowLocalhost: false, oauthProviders: [{ id: 'github', enabled: true, type: 'shared' }] },
    });
    expect(project.productionModeErrors).toEqual([
      {
        message: expect.stringContaining('OAuth provider github uses shared development keys'),
        relativeFixUrl: `/projects/${encodeURIComponent(project.id)}/sign-in-methods`,
      },
    ]);
    const live = await app.updateProject({ isProductionMode: true });
    expect(live.productionModeErrors).toEqual(project.productionModeErrors);
  });

  it('reads and changes the limits on guessing: the ones named change, the others stay', async () => {
    const { app } = await ownProject();
    const before = (await app.getProject()).config.rateLimits;
    expect(before).toEqual({
      signInFailuresPerAccount: 5,
      signInFailuresPerClient: 50,
      signUpsPerClient: 100,
      mailsPerAddress: 5,
      mailsPerClient: 30,
      codeChecksPerClient: 120,
    });
    const updated = await app.updateProject({ config: { rateLimits: { signInFailuresPerAccount: 8 } } });
    expect(updated.config.rateLimits).toEqual({ ...before, signInFailuresPerAccount: 8 });
  });

  it('names the OAuth callback URL of a provider on the service it talks to', () => {
    const app = new AdminApp({ projectId: 'p', baseUrl: 'https://auth.example/api/v1', superSecretAdminKey: 'k' });
    expect(app.oauthCallbackUrl('github')).toBe('https://auth.example/api/v1/auth/oauth/callback/github');
    expect(app.oauthCallbackUrl('corp-sso')).toBe('https://auth.example/api/v1/auth/oauth/callback/corp-sso');
  });

  it('deletes the project: its keys stop working', async () => {
    const { app, calls } = await ownProject();
    await app.deleteProject();
    expect(calls()).toEqual(['DELETE /projects/current']);
    await expect(app.getProject()).rejects.toMatchObject({
      code: expect.stringMatching(/INVALID_SUPER_SECRET_ADMIN_KEY|PROJECT_NOT_FOUND/),
    });
  });
});

describe('AdminApp API key sets', () => {
  it('creates a set with its keys in full once, then lists and reads it by the last four characters', async () => {
    const { app, requests } = setup();
    const expiresAt = new Date(service().clock.now() + 86_400_000);
    const created = await app.createApiKeySet({
      description: 'Backend',
      expiresAt,
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
    });
    expect(requests[0]?.body).toEqual({
      description: 'Backend',
      expires_at_millis: expiresAt.getTime(),
      has_publishable_client_key: true,
      has_secret_server_key: true,
    });
    expect(created).toMatchObject({
      description: 'Backend',
      expiresAt,
      manuallyRevokedAt: null,
      superSecretAdminKey: null,
    });
    expect(created.publishableClientKey).toMatch(/^pck_/);
    expect(created.secretServerKey).toMatch(/^ssk_/);
    expect(created.isValid()).toBe(true);
    const listed = (await app.listApiKeySets()).find((set) => set.id === created.id);
    expect(listed).toMatchObject({
      description: 'Backend',
      publishableClientKey: { lastFour: created.publishableClientKey!.slice(-4) },
      secretServerKey: { lastFour: created.secretServerKey!.slice(-4) },
      superSecretAdminKey: null,
    });
    expect(await app.getApiKeySet(created.id)).toMatchObject({ id: created.id, createdAt: created.createdAt });
    expect(await app.getApiKeySet('6f1c2d1e-0000-4000-8000-000000000000')).toBeNull();
  });

  it('revokes a set: it is invalid as manually revoked, and its secret key stops working', async () => {
    const { app } = setup();
    const created = await app.createApiKeySet({ description: 'Doomed', hasSecretServerKey: true });
    const server = createTestServerApp(service(), { secretServerKey: created.secretServerKey! }).app;
    await expect(server.listUsers({ limit: 1 })).resolves.toMatchObject({ items: expect.any(Array) });
    await created.revoke();
    const revoked = (await app.getApiKeySet(created.id))!;
    expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date);
    expect(revoked.whyInvalid()).toBe('manually-revoked');
    await expect(server.listUsers({ limit: 1 })).rejects.toMatchObject({ code: 'INVALID_SECRET_SERVER_KEY' });
  });

  it('tells an expired set by its expiry, on the app’s clock', async () => {
    const { app } = setup();
    const created = await app.createApiKeySet({
      hasPublishableClientKey: true,
      expiresAt: new Date(service().clock.now() + 60_000),
    });
    expect(created.whyInvalid()).toBeNull();
    service().clock.advance(61_000);
    expect(created.whyInvalid()).toBe('expired');
    expect((await app.getApiKeySet(created.id))?.isValid()).toBe(false);
  });

  it('throws a refused creation as a KnownError', async () => {
    const { app } = setup();
    await expect(app.createApiKeySet({ description: 'nothing asked for' })).rejects.toMatchObject({
      code: 'SCHEMA_ERROR',
    });
  });
});

describe('AdminApp metrics and users', () => {
  it('reads the metrics; their recent users are ServerUsers', async () => {
    const { app } = setup();
    const created = await app.createUser({ primaryEmail: newCredentials().email, displayName: 'Recent' });
    const metrics = await app.getMetrics();
    expect(metrics.totalUsers).toBeGreaterThanOrEqual(1);
    expect(metrics.dailyUsers).toHaveLength(31);
    expect(metrics.dailyUsers.at(-1)).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      activity: expect.any(Number),
    });
    expect(metrics.dailyActiveUsers).toHaveLength(31);
    expect(metrics.usersByCountry).toEqual(expect.any(Object));
    expect(metrics.loginMethods).toEqual(expect.any(Array));
    const recent = metrics.recentlyRegistered.find((user) => user.id === created.id);
    expect(recent).toMatchObject({ displayName: 'Recent' });
    expect(await recent?.update({ displayName: 'Renamed' })).toMatchObject({ displayName: 'Renamed' });
  });

  it('does everything ServerApp does with users, through the same module, with admin access', async () => {
    const { app, requests } = setup();
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    expect(await app.getUser(user.id)).toMatchObject({ id: user.id });
    expect((await app.listUsers({ query: user.id })).items.map((u) => u.id)).toEqual([user.id]);
    await user.delete();
    expect(requests.map((r) => r.headers['x-stack-access-type'])).toEqual(['admin', 'admin', 'admin', 'admin']);
  });
});

describe('AdminApp audit log', () => {
  it('lists a user’s security events newest first, filtered by type and time, and pages through all of them', async () => {
    const { app: client } = createTestApp(service());
    const credentials = newCredentials();
    await client.signUpWithCredential({ ...credentials, noRedirect: true });
    const user = await client.getUser({ or: 'throw' });
    await user.signOut({ redirectUrl: '/bye' });
    await expect(
      client.signInWithCredential({ ...credentials, password: 'wrong-password-1', noRedirect: true }),
    ).rejects.toMatchObject({ code: 'EMAIL_PASSWORD_MISMATCH' });
    await client.signInWithCredential({ ...credentials, noRedirect: true });

    const { app, requests } = setup();
    const page = await app.listAuditEvents({ userId: user.id });
    expect(page.items.map((event) => event.type)).toEqual([
      'sign_in.succeeded',
      'sign_in.failed',
      'session.revoked',
      'sign_up',
    ]);
    const [succeeded] = page.items;
    expect(succeeded).toMatchObject({
      userId: user.id,
      actor: { type: 'anonymous', id: null },
    });
    expect(succeeded!.occurredAt).toBeInstanceOf(Date);
    expect(succeeded!.data).toEqual({ method: 'password' });

    const failures = await app.listAuditEvents({ userId: user.id, types: ['sign_in.failed'] });
    expect(failures.items.map((event) => event.data.reason)).toEqual(['wrong_password']);
    const none = await app.listAuditEvents({
      userId: user.id,
      until: new Date(succeeded!.occurredAt.getTime() - 3_600_000),
    });
    expect(none.items).toEqual([]);

    const all: string[] = [];
    for await (const event of app.auditEvents({ userId: user.id, limit: 1 })) all.push(event.id);
    expect(all).toEqual(page.items.map((event) => event.id));
    expect(requests.at(-1)!.url).toContain('cursor=');
  });

  it('is refused to a server key', async () => {
    const { app } = createTestServerApp(service());
    expect('listAuditEvents' in app).toBe(false);
  });
});

describe('a project owner’s session (the internal project)', () => {
  let publishableClientKey: string;
  beforeAll(async () => {
    publishableClientKey = await internalPublishableKey(service());
  });

  /** A dashboard user signed up on `internal`, as a `ProjectOwnerApp` recording its requests. */
  async function owner() {
    const { app: internalApp } = createTestApp(service(), { projectId: 'internal', publishableClientKey });
    await internalApp.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const projectOwnerSession = await internalApp.getUser({ or: 'throw' });
    const recording = recordingFetch(service());
    const app = new ProjectOwnerApp({
      baseUrl: service().url,
      publishableClientKey,
      projectOwnerSession,
      fetch: recording.fetch,
      clock: service().clock,
    });
    return { app, projectOwnerSession, ...recording };
  }

  it('lists and creates the owner’s projects, in the admin view', async () => {
    const { app, requests } = await owner();
    expect(await app.listOwnedProjects()).toEqual([]);
    const created = await app.createProject({ displayName: 'Shop', config: { magicLinkEnabled: true } });
    expect(created).toMatchObject({ displayName: 'Shop', userCount: 0, config: { magicLinkEnabled: true } });
    expect((await app.listOwnedProjects()).map((project) => project.id)).toEqual([created.id]);
    expect(requests[0]?.headers).toMatchObject({
      'x-stack-project-id': 'internal',
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': publishableClientKey,
      'x-stack-access-token': expect.any(String),
    });
  });

  it('administers an owned project with the owner’s access token as admin access token', async () => {
    const { app, projectOwnerSession } = await owner();
    const shop = await app.createProject({ displayName: 'Owned shop' });
    const { app: admin, requests } = createTestAdminApp(service(), { projectId: shop.id, projectOwnerSession });
    expect(await admin.getProject()).toMatchObject({ id: shop.id, displayName: 'Owned shop' });
    const keys = await admin.createApiKeySet({ hasPublishableClientKey: true, hasSecretServerKey: true });
    expect(keys.secretServerKey).toMatch(/^ssk_/);
    expect(await admin.createUser({ primaryEmail: newCredentials().email })).toMatchObject({ id: expect.any(String) });
    const { accessToken } = await projectOwnerSession.getTokens();
    expect(requests[0]?.headers).toMatchObject({
      'x-stack-project-id': shop.id,
      'x-stack-access-type': 'admin',
      'x-stack-admin-access-token': accessToken,
    });
    for (const request of requests) {
      expect(Object.keys(request.headers).filter((name) => /key|x-stack-access-token/.test(name))).toEqual([]);
    }
    expect((await app.adminApp(shop.id).getProject()).id).toBe(shop.id);
  });

  it('is refused for a project the owner does not own, and once the session has ended', async () => {
    const first = await owner();
    const second = await owner();
    const shop = await first.app.createProject({ displayName: 'Not yours' });
    await expect(second.app.adminApp(shop.id).getProject()).rejects.toMatchObject({
      code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    });
    await first.projectOwnerSession.signOut({ noRedirect: true });
    await expect(first.app.adminApp(shop.id).getProject()).rejects.toMatchObject({
      code: 'USER_AUTHENTICATION_REQUIRED',
    });
    await expect(first.app.listOwnedProjects()).rejects.toMatchObject({ code: 'USER_AUTHENTICATION_REQUIRED' });
  });
});
