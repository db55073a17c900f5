/** `GET`, `PATCH` and `DELETE /users/me` over HTTP: views by access type, validation, deletion rules. */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  countRows,
  expectKnownError,
  expectStatusRefusal,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const clientKeys = [
  'auth_with_email',
  'client_metadata',
  'client_read_only_metadata',
  'display_name',
  'has_password',
  'id',
  'oauth_providers',
  'otp_auth_enabled',
  'passkey_auth_enabled',
  'primary_email',
  'primary_email_verified',
  'profile_image_url',
  'requires_totp_mfa',
  'selected_team',
  'selected_team_id',
  'signed_up_at_millis',
];
const serverKeys = [...clientKeys, 'last_active_at_millis', 'primary_email_auth_enabled', 'server_metadata'].sort();

describe('GET /users/me', () => {
  it('gives client access the client view', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(clientKeys);
    expect(answer.body).toMatchObject({
      id: user.user_id,
      primary_email: user.email,
      primary_email_verified: false,
      display_name: null,
      selected_team: null,
      has_password: true,
      auth_with_email: true,
      requires_totp_mfa: false,
      oauth_providers: [],
      client_metadata: null,
    });
  });

  it.each(['server', 'admin'] as const)('gives %s access the server view', async (accessType) => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user, accessType) });
    expect(Object.keys(answer.body).sort()).toEqual(serverKeys);
    expect(answer.body).toMatchObject({ primary_email_auth_enabled: true, server_metadata: null });
  });

  it('answers CANNOT_GET_OWN_USER_WITHOUT_USER without an access token', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', '/users/me', {
      headers: { ...authHeaders(service), [h.refreshToken]: user.refresh_token },
    });
    expectKnownError(answer, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });
});

describe('PATCH /users/me', () => {
  it('updates the client fields and answers the new user', async () => {
    const user = await signUp(service);
    const changes = {
      display_name: 'Alice',
      client_metadata: { theme: 'dark', n: 1, list: ['a', 1, null], text: 'plain "string"' },
      profile_image_url: 'data:image/webp;base64,UklGRg==',
      otp_auth_enabled: true,
      passkey_auth_enabled: true,
      selected_team_id: null,
      totp_secret_base64: null,
    };
    const answer = await call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json: changes });
    expect(answer.status).toBe(200);
    const { totp_secret_base64: _, ...visible } = changes;
    expect(answer.body).toMatchObject(visible);
    const again = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
    expect(again.body).toEqual(answer.body);
  });

  it('stores any JSON value as metadata, including bare strings, arrays and null', async () => {
    const user = await signUp(service);
    for (const value of ['just a string', ['x', 2], null, 0, false, { nested: { deep: [{}] } }]) {
      const answer = await call(service, 'PATCH', '/users/me', {
        headers: userHeaders(service, user),
        json: { client_metadata: value },
      });
      expect(answer.body.client_metadata).toEqual(value);
    }
  });

  it('answers metadata never written as null in every view; {} set is kept, and null sets it back', async () => {
    const user = await signUp(service);
    // `toMatchObject` takes null for `{}`: compare the metadata fields whole.
    const metadataOf = async (accessType: 'client' | 'server') => {
      const { body } = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user, accessType) });
      return { client: body.client_metadata, readOnly: body.client_read_only_metadata, server: body.server_metadata };
    };
    expect(await metadataOf('client')).toEqual({ client: null, readOnly: null, server: undefined });
    expect(await metadataOf('server')).toEqual({ client: null, readOnly: null, server: null });
    const set = (json: object) =>
      call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user, 'server'), json });
    expect((await set({ client_metadata: {}, client_read_only_metadata: {}, server_metadata: {} })).status).toBe(200);
    expect(await metadataOf('server')).toEqual({ client: {}, readOnly: {}, server: {} });
    expect(await metadataOf('client')).toEqual({ client: {}, readOnly: {}, server: undefined });
    expect((await set({ client_metadata: null, client_read_only_metadata: null, server_metadata: null })).status).toBe(
      200,
    );
    expect(await metadataOf('server')).toEqual({ client: null, readOnly: null, server: null });
  });

  it('clears nullable fields with null and accepts an empty patch', async () => {
    const user = await signUp(service);
    await call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json: { display_name: 'X' } });
    const cleared = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { display_name: null },
    });
    expect(cleared.body.display_name).toBeNull();
    const empty = await call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json: {} });
    expect(empty.status).toBe(200);
  });

  it('lets server access write the read-only and server metadata', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user, 'server'),
      json: { client_read_only_metadata: { plan: 'pro' }, server_metadata: { stripe: 'cus_1' } },
    });
    expect(answer.body).toMatchObject({
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: { stripe: 'cus_1' },
    });
    const client = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
    expect(client.body.client_read_only_metadata).toEqual({ plan: 'pro' });
    expect(client.body).not.toHaveProperty('server_metadata');
  });

  it('lets server access change what PATCH /users/{id} changes: e-mail, password, server metadata, image link', async () => {
    const user = await signUp(service);
    const changes = {
      primary_email: `moved-${user.user_id}@example.com`,
      primary_email_verified: true,
      password: 'a-new-server-password',
      server_metadata: { stripe: 'cus_2' },
      profile_image_url: 'https://cdn.example.com/alice.png',
    };
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user, 'server'),
      json: changes,
    });
    expect(answer.status).toBe(200);
    const { password: _, ...visible } = changes;
    expect(answer.body).toMatchObject({ ...visible, has_password: true });
    const signIn = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: changes.primary_email, password: changes.password },
    });
    expect(signIn.status).toBe(200);
  });

  it('refuses server access an address another user signs in with: USER_EMAIL_ALREADY_EXISTS', async () => {
    const other = await signUp(service);
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user, 'server'),
      json: { primary_email: other.email.toUpperCase() },
    });
    expectKnownError(answer, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await snapshot(service)).toEqual(before);
  });

  it.each([
    ['a javascript: image URL', { profile_image_url: 'javascript:alert(1)' }],
    ['an ftp image URL', { profile_image_url: 'ftp://example.com/me.png' }],
    ['an unknown field', { nickname: 'al' }],
  ])('refuses server access %s with SCHEMA_ERROR', async (_name, body) => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user, 'server'),
      json: body,
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
  });

  it.each([
    ['client_read_only_metadata from a client', { client_read_only_metadata: { plan: 'free' } }],
    ['server_metadata from a client', { server_metadata: { x: 1 } }],
    ['primary_email_verified from a client', { primary_email_verified: true }],
    ['primary_email_auth_enabled from a client', { primary_email_auth_enabled: false }],
    [
      'a password hash from a client',
      { password_hash: '$2b$04$abcdefghijklmnopqrstuuQeGDtjbRnL9n0yT3DjuQkS3cQ5kFdQu' },
    ],
    ['an unknown field', { nickname: 'al' }],
    ['primary_email (not writable here)', { primary_email: 'new@example.com' }],
    ['a numeric display name', { display_name: 5 }],
    ['an over-long display name', { display_name: 'x'.repeat(257) }],
    ['a boolean as string', { otp_auth_enabled: 'true' }],
    ['a relative image URL', { profile_image_url: '/me.png' }],
    ['an empty image URL', { profile_image_url: '' }],
    ['bare base64 without the data URL', { profile_image_url: 'iVBORw0KGgo=' }],
    ['oversized metadata', { client_metadata: { blob: 'x'.repeat(17_000) } }],
    ['metadata nested 70 levels deep', { client_metadata: JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) }],
    ['a TOTP secret shorter than 10 bytes', { totp_secret_base64: 'xcrfsRo4g5j/' }],
    ['a TOTP secret not in standard base64', { totp_secret_base64: 'xcrfsRo4g5j_2v6zuxb01kXD3iA=' }],
    ['an array body', [{ display_name: 'x' }]],
  ])('refuses %s with SCHEMA_ERROR and changes nothing', async (_name, body) => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json: body });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it.each([
    ['a javascript: image URL', 'javascript:alert(1)'],
    ['an ftp image URL', 'ftp://example.com/me.png'],
    ['a non-image data URL', 'data:text/html;base64,PHNjcmlwdD4='],
    ['an SVG data URL', 'data:image/svg+xml;base64,PHN2Zz4='],
    ['a data URL of an unknown image type', 'data:image/not-valid;base64,dGVzdA=='],
    ['a data URL that is not base64', 'data:image/png;base64,not!base64'],
  ])("refuses a client's %s with the reference's plain 400 and changes nothing", async (_name, url) => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { profile_image_url: url },
    });
    expectStatusRefusal(answer, 400, 'Invalid profile image URL');
    expect(await snapshot(service)).toEqual(before);
  });

  it('stores an empty display name as none', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { display_name: '' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.display_name).toBeNull();
  });

  it.each([
    // Regression: zod rebuilt the object without the key and the answer was 200.
    [
      'a __proto__ key in metadata (silently dropped)',
      '{"client_metadata":{"__proto__":{"admin":true},"x":1}}',
      '__proto__',
    ],
    ['a __proto__ key deep in metadata', '{"client_metadata":{"list":[{"__proto__":null}]}}', '__proto__'],
    // Regression: valid JSON that jsonb refuses, answered 500.
    ['a lone surrogate in a metadata value (was a 500)', '{"client_metadata":{"a":"\\ud800"}}', 'lone surrogate'],
    ['a lone surrogate in a metadata key (was a 500)', '{"client_metadata":{"\\udc00":1}}', 'lone surrogate'],
    // Regression: stored as U+FFFD, so the answer differed from what was sent.
    ['a lone surrogate in the display name (stored as U+FFFD)', '{"display_name":"x\\ud800y"}', 'lone surrogate'],
  ])('refuses %s with SCHEMA_ERROR and changes nothing', async (_name, body, words) => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: { ...userHeaders(service, user), 'content-type': 'application/json' },
      body,
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toContain(words);
    expect(await snapshot(service)).toEqual(before);
  });

  it('keeps keys such as constructor and prototype, and astral characters, unchanged', async () => {
    const user = await signUp(service);
    const value = { constructor: { prototype: { polluted: 1 } }, key: '🔑 ünïcødé' };
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { client_metadata: value, display_name: '🔑' },
    });
    expect(answer.body).toMatchObject({ client_metadata: value, display_name: '🔑' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts an http(s) image link from a client (the reference takes only data URLs)', async () => {
    const user = await signUp(service);
    const url = 'https://cdn.example.com/alice.png';
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { profile_image_url: url },
    });
    expect(answer.body.profile_image_url).toBe(url);
  });

  it.each(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp'])('accepts a base64 %s data URL', async (format) => {
    const user = await signUp(service);
    const url = `data:image/${format};base64,${Buffer.from('image bytes').toString('base64')}`;
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { profile_image_url: url },
    });
    expect(answer.body.profile_image_url).toBe(url);
  });

  it('refuses a body over the 100 KiB limit with BODY_PARSING_ERROR', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { client_metadata: { blob: 'x'.repeat(110_000) } },
    });
    expectKnownError(answer, 'BODY_PARSING_ERROR', 400);
  });

  it('refuses selecting a team that does not exist', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { selected_team_id: 'f22c438e-7f0e-489c-abb2-105d325031fe' },
    });
    expectKnownError(answer, 'TEAM_NOT_FOUND', 404);
  });

  it('needs a user', async () => {
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: authHeaders(service),
      json: { display_name: 'x' },
    });
    expectKnownError(answer, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });
});

describe('DELETE /users/me', () => {
  it('is refused to a client while client_user_deletion_enabled is off', async () => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'DELETE', '/users/me', { headers: userHeaders(service, user) });
    expectStatusRefusal(answer, 400, 'Client user deletion is not enabled for this project');
    expect(await snapshot(service)).toEqual(before);
  });

  it('deletes the user and their sessions when the project allows it (no body)', async () => {
    const user = await signUp(service);
    await service.setProjectConfig({ client_user_deletion_enabled: true });
    try {
      const users = await countRows(service, 'users');
      const answer = await call(service, 'DELETE', '/users/me', { headers: userHeaders(service, user) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      expect(await countRows(service, 'users')).toBe(users - 1);
      const sessions = await dbOf(service.storage)
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.user_id)
        .execute();
      expect(sessions).toEqual([]);
      const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
      expectKnownError(me, 'ACCESS_TOKEN_EXPIRED', 401);
      const signIn = await call(service, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(service),
        json: { email: user.email, password: user.password },
      });
      expectKnownError(signIn, 'EMAIL_PASSWORD_MISMATCH', 400);
    } finally {
      await service.setProjectConfig({ client_user_deletion_enabled: false });
    }
  });

  it.each(['server', 'admin'] as const)('is always allowed to %s access (with a {} body)', async (accessType) => {
    const user = await signUp(service);
    const answer = await call(service, 'DELETE', '/users/me', {
      headers: userHeaders(service, user, accessType),
      json: {},
    });
    expect(answer.status).toBe(200);
  });

  it('frees the e-mail address for a new sign-up', async () => {
    const user = await signUp(service);
    await call(service, 'DELETE', '/users/me', { headers: userHeaders(service, user, 'server') });
    await signUp(service, user.email);
  });

  it('ignores a body with fields, as the original backend', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'DELETE', '/users/me', {
      headers: userHeaders(service, user, 'server'),
      json: { confirm: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
  });
});
