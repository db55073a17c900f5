/** Access tokens: format (wire-protocol §5.1), JWKS, expiry by the service clock, keys at rest. */
import { accessTokenIssuer, headers as h } from '@latchkey/protocol';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer } from '../crypto/encryption.js';
import { dbOf } from '../storage/open-storage.js';
import { call, expectKnownError, refreshGrant, signUp, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import { AccessTokens } from './access-tokens.js';
import { SigningKeys } from './signing-keys.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('issued access tokens', () => {
  it('are ES256 JWTs with a 12-character kid and the protocol claims, living 600 s', async () => {
    const before = Math.floor(service.clock.now() / 1000);
    const user = await signUp(service);
    const header = decodeProtectedHeader(user.access_token);
    expect(header).toEqual({ alg: 'ES256', kid: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/) });
    const claims = decodeJwt(user.access_token);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'branchId', 'exp', 'iat', 'iss', 'sid', 'sub']);
    expect(claims).toMatchObject({
      sub: user.user_id,
      branchId: 'main',
      iss: accessTokenIssuer,
      aud: service.projectId,
    });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp! - claims.iat!).toBe(600);
  });

  it('verify against the published JWKS (fetched over HTTP)', async () => {
    const user = await signUp(service);
    const jwks = createRemoteJWKSet(new URL(`${service.apiUrl}/projects/${service.projectId}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(user.access_token, jwks, {
      issuer: accessTokenIssuer,
      audience: service.projectId,
      currentDate: new Date(service.clock.now()),
    });
    expect(payload.sub).toBe(user.user_id);
  });

  it('are signed with a key of their own project', async () => {
    const other = await service.createOtherProject();
    const mine = await signUp(service);
    const theirs = await signUp({ ...service, projectId: other.projectId, keys: other.keys });
    expect(decodeProtectedHeader(mine.access_token).kid).not.toBe(decodeProtectedHeader(theirs.access_token).kid);
  });

  it('expire by the service clock: ACCESS_TOKEN_EXPIRED with {expired_at_millis: null}, then a refresh works', async () => {
    const user = await signUp(service);
    service.clock.advance(601_000);
    try {
      const answer = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
      expectKnownError(answer, 'ACCESS_TOKEN_EXPIRED', 401);
      expect(answer.body.details).toEqual({ expired_at_millis: null });
      const refreshed = await refreshGrant(service, user.refresh_token);
      const me = await call(service, 'GET', '/users/me', {
        headers: userHeaders(service, { ...user, access_token: refreshed.body.access_token }),
      });
      expect(me.body.id).toBe(user.user_id);
    } finally {
      service.clock.advance(-601_000);
    }
  });

  it('are still accepted one second before expiry', async () => {
    const user = await signUp(service);
    service.clock.advance(598_000);
    try {
      const answer = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
      expect(answer.status).toBe(200);
    } finally {
      service.clock.advance(-598_000);
    }
  });
});

describe('a verified token', () => {
  /** Tokens of a fresh project, checked by an `AccessTokens` that counts its key lookups. */
  async function counting() {
    const other = await service.createOtherProject();
    let now = Date.now();
    const clock = { now: () => now };
    const keys = new SigningKeys(dbOf(service.storage), createSealer('a test secret for this one check!!', 'x'), clock);
    let lookups = 0;
    const lookup = keys.verificationKey.bind(keys);
    keys.verificationKey = (kid) => {
      lookups++;
      return lookup(kid);
    };
    const tokens = new AccessTokens(keys, clock);
    const token = await tokens.issue(other.projectId, crypto.randomUUID(), crypto.randomUUID());
    return { tokens, token, lookups: () => lookups, clock, advance: (ms: number) => (now += ms) };
  }

  it('is verified once: later checks answer the same without verifying again', async () => {
    const { tokens, token, lookups } = await counting();
    const first = await tokens.check(token);
    expect(first).toMatchObject({ ok: true });
    for (let i = 0; i < 5; i++) expect(await tokens.check(token)).toEqual(first);
    expect(lookups()).toBe(1);
  });

  it('still expires at its exp, as jose decides, and a changed byte is verified afresh and refused', async () => {
    const { tokens, token, clock, advance } = await counting();
    expect((await tokens.check(token)).ok).toBe(true);
    const [head, body, signature] = token.split('.') as [string, string, string];
    const tampered = `${head}.${body}.${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.slice(-1)}`;
    expect(await tokens.check(tampered)).toEqual({ ok: false, reason: 'unparsable' });
    const { exp } = decodeJwt(token);
    // Its last valid second, then its exp.
    advance(exp! * 1000 - clock.now() - 1_000);
    expect((await tokens.check(token)).ok).toBe(true);
    advance(1_000);
    expect(await tokens.check(token)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('JWKS', () => {
  it('is public: no keys needed, only ES256 public parameters', async () => {
    const response = await fetch(`${service.apiUrl}/projects/${service.projectId}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('answers PROJECT_NOT_FOUND for an unknown project', async () => {
    const answer = await call(service, 'GET', '/projects/no-such-project/.well-known/jwks.json', {
      headers: { [h.overrideErrorStatus]: 'true' },
    });
    expectKnownError(answer, 'PROJECT_NOT_FOUND', 404);
    expect(answer.body.details).toEqual({ project_id: 'no-such-project' });
  });
});

describe('signing keys at rest', () => {
  it('store the private key encrypted, so another master secret cannot sign', async () => {
    await signUp(service);
    const row = await dbOf(service.storage)
      .selectFrom('signing_keys')
      .selectAll()
      .where('project_id', '=', service.projectId)
      .executeTakeFirstOrThrow();
    expect(row.private_jwk_encrypted).toMatch(/^v1\./);
    expect(row.private_jwk_encrypted).not.toContain('"d"');
    const clock = { now: () => Date.now() };
    const keys = new SigningKeys(
      dbOf(service.storage),
      createSealer('another secret of 32 characters!!', 'signing-keys'),
      clock,
    );
    await expect(
      new AccessTokens(keys, clock).issue(service.projectId, crypto.randomUUID(), crypto.randomUUID()),
    ).rejects.toThrow(/master secret/);
  });

  it('are created once per project when two instances race for it', async () => {
    const other = await service.createOtherProject();
    const clock = { now: () => Date.now() };
    const sealer = createSealer('the same secret for both instances!', 'signing-keys');
    const instances = [1, 2, 3].map(() => new SigningKeys(dbOf(service.storage), sealer, clock));
    const keys = await Promise.all(instances.map((instance) => instance.signingKey(other.projectId)));
    expect(new Set(keys.map((key) => key.kid)).size).toBe(1);
    const rows = await dbOf(service.storage)
      .selectFrom('signing_keys')
      .select('kid')
      .where('project_id', '=', other.projectId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
