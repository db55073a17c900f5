/**
 * `ServerApp` against the real service, in-process (one service for the
 * file): users (create with a password or an imported hash, read, update,
 * delete, list page by page, search), their sessions, and the user of an
 * incoming request. Every call is checked by what a caller sees and by the
 * request that produced it.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { isKnownError, passwordMaxLength } from '@latchkey/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerApp } from './server-app.js';
import { createTestServerApp, importedHashes } from './test-support/server-apps.js';
import { createTestApp, newCredentials, useTestService } from './test-support/service.js';

/** Access-token lifetime the service issues (wire-protocol.md §5.1). */
const accessTokenLifetimeMs = 600_000;

const service = useTestService();
const setup = () => createTestServerApp(service());

/** A user signed up through a `ClientApp`, and the app's tokens. */
async function signedUpClient() {
  const { app } = createTestApp(service());
  const credentials = { ...newCredentials(), noRedirect: true };
  const { userId } = await app.signUpWithCredential(credentials);
  const tokens = await (await app.getUser({ or: 'throw' })).getTokens();
  return { userId, credentials, tokens: { accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! } };
}

/** Whether `email` can sign in with `password` through a `ClientApp`. */
async function canSignIn(email: string, password: string): Promise<boolean> {
  const { app } = createTestApp(service());
  return app.signInWithCredential({ email, password, noRedirect: true }).then(
    () => true,
    (error) => {
      if (isKnownError(error, 'EMAIL_PASSWORD_MISMATCH')) return false;
      throw error;
    },
  );
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('ServerApp options', () => {
  const globals = globalThis as { window?: unknown; document?: unknown };
  afterEach(() => {
    delete globals.window;
    delete globals.document;
  });

  it('requires the project id, base URL and secret server key', () => {
    const options = { projectId: 'p', baseUrl: 'https://auth.example', secretServerKey: 'ssk_x' };
    expect(() => new ServerApp({ ...options, secretServerKey: '' })).toThrow(
      new TypeError('ServerApp: the secretServerKey option is required.'),
    );
    expect(() => new ServerApp({ ...options, projectId: undefined as unknown as string })).toThrow(
      'ServerApp: the projectId option is required.',
    );
    expect(new ServerApp(options).projectId).toBe('p');
  });

  it.each(['window', 'document'] as const)('refuses to hold the secret key where %s exists (a browser)', (name) => {
    globals[name] = {};
    expect(() => new ServerApp({ projectId: 'p', baseUrl: 'https://auth.example', secretServerKey: 'ssk_x' })).toThrow(
      /ServerApp: the secret server key must never reach a browser/,
    );
  });
});

describe('ServerApp users', () => {
  it('creates a user with a password, who can then sign in with the e-mail; the answer is the server view', async () => {
    const { app, requests } = setup();
    const { email, password } = newCredentials();
    const user = await app.createUser({
      primaryEmail: email,
      primaryEmailAuthEnabled: true,
      password,
      displayName: 'Ada',
      primaryEmailVerified: true,
      serverMetadata: { plan: 'pro' },
      clientReadOnlyMetadata: { role: 'admin' },
    });
    expect(user).toMatchObject({
      primaryEmail: email,
      displayName: 'Ada',
      primaryEmailVerified: true,
      primaryEmailAuthEnabled: true,
      hasPassword: true,
      serverMetadata: { plan: 'pro' },
      clientReadOnlyMetadata: { role: 'admin' },
      selectedTeam: null,
    });
    expect(user.lastActiveAt).toBeInstanceOf(Date);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/users',
      headers: {
        'x-stack-access-type': 'server',
        'x-stack-secret-server-key': service().keys.secretServerKey,
        'x-stack-project-id': service().projectId,
      },
      body: {
        primary_email: email,
        primary_email_auth_enabled: true,
        password,
        display_name: 'Ada',
        primary_email_verified: true,
        server_metadata: { plan: 'pro' },
        client_read_only_metadata: { role: 'admin' },
      },
    });
    expect(requests[0]?.headers).not.toHaveProperty('x-stack-publishable-client-key');
    expect(await canSignIn(email, password)).toBe(true);
  });

  it.each(Object.entries(importedHashes))(
    'imports a %s password hash: the user signs in with the password',
    async (_, hash) => {
      const { app } = setup();
      const { email, password } = newCredentials('correct-horse-1');
      const user = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, passwordHash: hash });
      expect(user.hasPassword).toBe(true);
      expect(await canSignIn(email, password)).toBe(true);
      expect(await canSignIn(email, 'wrong-horse-1')).toBe(false);
    },
  );

  it('throws the refusals of createUser as KnownErrors', async () => {
    const { app } = setup();
    const { email, password } = newCredentials();
    await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password });
    const taken = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true }).catch((e) => e);
    expect(isKnownError(taken, 'USER_EMAIL_ALREADY_EXISTS')).toBe(true);
    // Server code may set a short password (as Stack's backend lets it), not an endless one.
    const long = await app
      .createUser({ primaryEmail: newCredentials().email, password: 'x'.repeat(passwordMaxLength + 1) })
      .catch((e) => e);
    expect(isKnownError(long, 'PASSWORD_TOO_LONG') && long.details).toEqual({ maxLength: passwordMaxLength });
  });

  it('reads a user by id, and null for an id the project does not have', async () => {
    const { app, calls } = setup();
    const created = await app.createUser({ primaryEmail: newCredentials().email });
    const data = Object.fromEntries(Object.entries(created).filter(([, value]) => typeof value !== 'function'));
    expect(await app.getUser(created.id)).toMatchObject(data);
    expect(await app.getUser('6f1c2d1e-0000-4000-8000-000000000000')).toBeNull();
    expect(calls()).toEqual([
      'POST /users',
      `GET /users/${created.id}`,
      'GET /users/6f1c2d1e-0000-4000-8000-000000000000',
    ]);
  });

  it('updates any server field and resolves with the user as it is afterwards', async () => {
    const { app, requests } = setup();
    const { email, password } = newCredentials();
    const user = await app.createUser({ primaryEmail: email, password });
    const updated = await user.update({
      displayName: 'Grace',
      clientMetadata: { theme: 'dark' },
      clientReadOnlyMetadata: { level: 3 },
      serverMetadata: { stripe: 'cus_1' },
      primaryEmailVerified: true,
      otpAuthEnabled: true,
    });
    expect(updated).toMatchObject({
      id: user.id,
      displayName: 'Grace',
      clientMetadata: { theme: 'dark' },
      clientReadOnlyMetadata: { level: 3 },
      serverMetadata: { stripe: 'cus_1' },
      primaryEmailVerified: true,
      otpAuthEnabled: true,
    });
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/api/v1/users/${user.id}` });
    expect(await app.getUser(user.id)).toMatchObject({ displayName: 'Grace', serverMetadata: { stripe: 'cus_1' } });
  });

  it('sets a new password, with which the user signs in instead of the old one', async () => {
    const { app } = setup();
    const { email, password } = newCredentials();
    const user = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password });
    await user.update({ password: 'new-horse-battery-2' });
    expect(await canSignIn(email, password)).toBe(false);
    expect(await canSignIn(email, 'new-horse-battery-2')).toBe(true);
  });

  it('deletes a user; deleting again is USER_NOT_FOUND', async () => {
    const { app, requests } = setup();
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    await user.delete();
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/v1/users/${user.id}`, body: {} });
    expect(await app.getUser(user.id)).toBeNull();
    await expect(user.delete()).rejects.toMatchObject({ code: 'USER_NOT_FOUND', status: 404 });
  });

  it('a wrong secret server key is thrown as INVALID_SECRET_SERVER_KEY', async () => {
    const { app } = createTestServerApp(service(), { secretServerKey: `ssk_${'0'.repeat(45)}` });
    await expect(app.getUser('6f1c2d1e-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'INVALID_SECRET_SERVER_KEY',
    });
  });
});

describe('ServerApp user lists', () => {
  /** Five users that only a search for `tag` finds, in sign-up order. */
  async function taggedUsers() {
    const { app } = setup();
    const tag = `tag${Math.random().toString(36).slice(2, 10)}`;
    const users = [];
    for (let i = 0; i < 5; i++) {
      users.push(await app.createUser({ primaryEmail: `${tag}-${i}@example.com`, displayName: `${tag} ${i}` }));
      service().clock.advance(1_000);
    }
    return { tag, ids: users.map((user) => user.id) };
  }

  it('lists page by page with limit and cursor, in sign-up order or reversed', async () => {
    const { tag, ids } = await taggedUsers();
    const { app, requests } = setup();
    const first = await app.listUsers({ query: tag, limit: 2 });
    expect(first.items.map((user) => user.id)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(requests[0]?.query).toEqual({ query: tag, limit: '2' });
    const second = await app.listUsers({ query: tag, limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((user) => user.id)).toEqual(ids.slice(2, 4));
    const last = await app.listUsers({ query: tag, limit: 2, cursor: second.nextCursor! });
    expect(last).toMatchObject({ items: [{ id: ids[4] }], nextCursor: null });
    const reversed = await app.listUsers({ query: tag, orderBy: 'signedUpAt', desc: true });
    expect(reversed.items.map((user) => user.id)).toEqual([...ids].reverse());
    expect(requests.at(-1)?.query).toEqual({ query: tag, order_by: 'signed_up_at', desc: 'true' });
  });

  it('finds users by e-mail, display name or id; the users listed are ServerUsers', async () => {
    const { tag, ids } = await taggedUsers();
    const { app } = setup();
    expect((await app.listUsers({ query: `${tag}-3@example.com` })).items.map((u) => u.id)).toEqual([ids[3]]);
    expect((await app.listUsers({ query: ids[1] })).items.map((u) => u.id)).toEqual([ids[1]]);
    const [listed] = (await app.listUsers({ query: `${tag} 2` })).items;
    expect(await listed?.update({ serverMetadata: { listed: true } })).toMatchObject({ id: ids[2] });
  });

  it('iterateUsers pages through every user, asking for a page only when the loop needs it', async () => {
    const { tag, ids } = await taggedUsers();
    const { app, calls } = setup();
    expect((await collect(app.iterateUsers({ query: tag, limit: 2 }))).map((user) => user.id)).toEqual(ids);
    expect(calls()).toEqual(['GET /users', 'GET /users', 'GET /users']);
    for await (const user of app.iterateUsers({ query: tag, limit: 2, desc: true })) {
      expect(user.id).toBe(ids[4]);
      break;
    }
    expect(calls()).toHaveLength(4);
  });
});

describe('ServerApp sessions', () => {
  it('creates a session for a user (impersonation) that a ClientApp can use', async () => {
    const { app, requests } = setup();
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    const tokens = await user.createSession({ expiresInMillis: 3_600_000, isImpersonation: true });
    expect(requests.at(-1)).toMatchObject({
      path: '/api/v1/auth/sessions',
      body: { user_id: user.id, expires_in_millis: 3_600_000, is_impersonation: true },
    });
    const client = createTestApp(service(), { tokenStore: tokens }).app;
    expect(await client.getUser()).toMatchObject({ id: user.id });
    const [session] = await user.listSessions();
    expect(session).toMatchObject({ userId: user.id, isImpersonation: true, isCurrent: false });
    expect(session?.expiresAt.getTime()).toBe(session!.createdAt.getTime() + 3_600_000);
  });

  it('lists a user’s sessions and revokes one: its refresh token stops working', async () => {
    const { userId, tokens } = await signedUpClient();
    const { app, calls } = setup();
    const user = (await app.getUser(userId))!;
    await user.createSession({ isImpersonation: true });
    const sessions = await user.listSessions();
    expect(sessions.map((s) => [s.userId, s.isImpersonation]).sort()).toEqual([
      [userId, false],
      [userId, true],
    ]);
    const signUpSession = sessions.find((s) => !s.isImpersonation)!;
    await signUpSession.revoke();
    expect(calls().at(-1)).toBe(`DELETE /auth/sessions/${signUpSession.id}`);
    const client = createTestApp(service(), { tokenStore: { refreshToken: tokens.refreshToken } }).app;
    expect(await client.getUser()).toBeNull();
    expect((await user.listSessions()).map((s) => s.isImpersonation)).toEqual([true]);
    await expect(signUpSession.revoke()).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});

describe('ServerApp.getUser of a request', () => {
  const cookieHeader = (projectId: string, tokens: { accessToken: string; refreshToken: string }) =>
    [
      `stack-refresh-${projectId}=${tokens.refreshToken}`,
      `stack-access=${encodeURIComponent(JSON.stringify([tokens.refreshToken, tokens.accessToken]))}`,
    ].join('; ');

  function nodeRequest(headers: Record<string, string>): IncomingMessage {
    const message = new IncomingMessage(new Socket());
    message.headers = headers;
    return message;
  }

  it('reads the user of a Fetch Request, a Node IncomingMessage or headers, by cookies or x-stack-auth', async () => {
    const { userId, tokens } = await signedUpClient();
    const { app, requests } = setup();
    const cookie = cookieHeader(service().projectId, tokens);
    const sources = [
      new Request('https://app.example/page', { headers: { cookie } }),
      nodeRequest({ cookie }),
      new Headers({ 'x-stack-auth': JSON.stringify(tokens) }),
      { 'X-Stack-Auth': JSON.stringify(tokens) },
      tokens,
    ];
    for (const tokenStore of sources) {
      const user = await app.getUser({ tokenStore });
      expect(user).toMatchObject({ id: userId, serverMetadata: null });
    }
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(5).fill('GET /api/v1/users/me'));
    expect(requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': service().keys.secretServerKey,
      'x-stack-access-token': tokens.accessToken,
      'x-stack-refresh-token': tokens.refreshToken,
    });
  });

  it('refreshes an expired access token with the publishable key, then reads the user', async () => {
    const { userId, tokens } = await signedUpClient();
    service().clock.advance(accessTokenLifetimeMs + 1_000);
    const { app, calls } = setup();
    expect(
      await app.getUser({ tokenStore: new Headers({ cookie: cookieHeader(service().projectId, tokens) }) }),
    ).toMatchObject({
      id: userId,
    });
    expect(calls()).toEqual(['POST /auth/oauth/token', 'GET /users/me']);
  });

  it('returns a user whose methods act with the server key, not the request’s tokens', async () => {
    const { userId, tokens } = await signedUpClient();
    const { app, requests } = setup();
    const user = await app.getUser({ tokenStore: tokens, or: 'throw' });
    await user.update({ serverMetadata: { seen: true } });
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/api/v1/users/${userId}` });
    expect(requests.at(-1)?.headers).not.toHaveProperty('x-stack-access-token');
  });

  it('is null for a request without a session, or whose session ended; or throws with { or: "throw" }', async () => {
    const { tokens } = await signedUpClient();
    const { app, calls } = setup();
    expect(await app.getUser({ tokenStore: new Request('https://app.example/') })).toBeNull();
    expect(calls()).toEqual([]); // no tokens: nothing to ask
    const ended = { refreshToken: tokens.refreshToken };
    const signedIn = createTestApp(service(), { tokenStore: tokens }).app;
    await (await signedIn.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    expect(await app.getUser({ tokenStore: ended })).toBeNull();
    await expect(app.getUser({ tokenStore: {}, or: 'throw' })).rejects.toMatchObject({
      code: 'USER_AUTHENTICATION_REQUIRED',
    });
  });

  it('needs the publishable key to read the user of a request', async () => {
    const { tokens } = await signedUpClient();
    const { app } = createTestServerApp(service(), { publishableClientKey: undefined });
    await expect(app.getUser({ tokenStore: tokens })).rejects.toThrow(
      "ServerApp: getUser({ tokenStore }) needs the publishableClientKey option, to refresh the request's session.",
    );
    expect(await app.getUser({ tokenStore: {} })).toBeNull();
  });
});

describe('ServerApp.authenticateRequest (local verification against the JWKS)', () => {
  const jwksCall = () => `GET /projects/${service().projectId}/.well-known/jwks.json`;

  it('verifies the access token of a request without a call per request', async () => {
    // The token's expiry is whole seconds from when it was issued, somewhere within the sign-up.
    const second = () => Math.floor(service().clock.now() / 1000) * 1000;
    const issuedFrom = second();
    const { userId, tokens } = await signedUpClient();
    const issuedBy = second();
    const { app, calls } = setup();
    const answers = [];
    for (const tokenStore of [new Headers({ authorization: `Bearer ${tokens.accessToken}` }), tokens, tokens]) {
      answers.push(await app.authenticateRequest(tokenStore));
    }
    const expiresAt = answers[0]?.expiresAt?.getTime() ?? 0;
    expect(expiresAt).toBeGreaterThanOrEqual(issuedFrom + accessTokenLifetimeMs);
    expect(expiresAt).toBeLessThanOrEqual(issuedBy + accessTokenLifetimeMs);
    expect(answers).toEqual(Array(3).fill({ userId, expiresAt: new Date(expiresAt) }));
    expect(calls()).toEqual([jwksCall()]);
    expect(await app.authenticateRequest(new Request('https://app.example/'))).toBeNull();
    expect(calls()).toHaveLength(1);
  });

  it('refuses an expired token (past the 30 s tolerance), a forged one and garbage', async () => {
    const { tokens } = await signedUpClient();
    const { app } = setup();
    const [header, payload, signature] = tokens.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    for (const accessToken of [`${header}.${forgedPayload}.${signature}`, 'not-a-jwt', `${header}.${payload}.AAAA`]) {
      expect(await app.authenticateRequest({ accessToken })).toBeNull();
    }
    service().clock.advance(accessTokenLifetimeMs + 20_000);
    expect(await app.authenticateRequest(tokens)).not.toBeNull(); // within the tolerance
    service().clock.advance(11_000);
    expect(await app.authenticateRequest(tokens)).toBeNull();
  });

  it("refuses another project's token; an unknown key refetches the keys at most once a minute", async () => {
    const other = await service().createOtherProject();
    const { app: otherClient } = createTestApp(service(), {
      projectId: other.projectId,
      publishableClientKey: other.keys.publishableClientKey,
    });
    await otherClient.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const { accessToken } = await (await otherClient.getUser({ or: 'throw' })).getTokens();
    const { app, calls } = setup();
    expect(await app.authenticateRequest({ accessToken })).toBeNull();
    expect(await app.authenticateRequest({ accessToken })).toBeNull();
    expect(calls()).toEqual([jwksCall()]);
    service().clock.advance(61_000);
    expect(await app.authenticateRequest({ accessToken })).toBeNull();
    expect(calls()).toEqual([jwksCall(), jwksCall()]);
  });

  it('getUser reads the user of a bearer token (no refresh token) by id, once the token verifies', async () => {
    const { userId, tokens } = await signedUpClient();
    const { app, calls } = setup();
    const request = new Request('https://api.example/', { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(await app.getUser({ tokenStore: request })).toMatchObject({ id: userId });
    expect(calls()).toEqual([jwksCall(), `GET /users/${userId}`]);
    service().clock.advance(accessTokenLifetimeMs + 31_000);
    expect(await app.getUser({ tokenStore: request })).toBeNull(); // cannot be refreshed
  });
});
