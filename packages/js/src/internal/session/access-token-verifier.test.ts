import { accessTokenIssuer } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { checkClaims, decodeJwks } from './access-token-verifier.js';

const now = Date.UTC(2030, 0, 1);
const claims = { iss: accessTokenIssuer, aud: 'p1', sub: 'u1', iat: now / 1000 - 60, exp: now / 1000 + 600 };

describe('checkClaims (after the signature matched)', () => {
  it('accepts the claims the service issues, and reads the user and expiry', () => {
    expect(checkClaims(claims, 'p1', now)).toEqual({ userId: 'u1', expiresAt: now + 600_000 });
  });

  it('accepts the legacy projectId claim instead of aud, and a token without exp (never expires)', () => {
    const { aud: _, exp: __, ...legacy } = claims;
    expect(checkClaims({ ...legacy, projectId: 'p1' }, 'p1', now)).toEqual({ userId: 'u1', expiresAt: null });
  });

  it('allows 30 s of clock difference past exp, not more', () => {
    const expired = { ...claims, exp: now / 1000 - 29 };
    expect(checkClaims(expired, 'p1', now)).not.toBeNull();
    expect(checkClaims({ ...claims, exp: now / 1000 - 30 }, 'p1', now)).toBeNull();
  });

  it.each([
    ['another project', { aud: 'p2' }],
    ['another issuer', { iss: 'https://elsewhere.example' }],
    ['no subject', { sub: '' }],
    ['a non-numeric expiry', { exp: 'never' }],
  ])('refuses a token of %s', (_, change) => {
    expect(checkClaims({ ...claims, ...change }, 'p1', now)).toBeNull();
  });
});

describe('decodeJwks', () => {
  it('reads the keys of a JWKS, naming a malformed one', () => {
    const key = { kid: 'abc', kty: 'EC', crv: 'P-256', x: 'x', y: 'y', alg: 'ES256', use: 'sig' };
    expect(decodeJwks({ keys: [key] })).toEqual([{ kid: 'abc', kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }]);
    expect(() => decodeJwks({ keys: [{ kty: 'EC' }] })).toThrow('keys[0].kid is missing');
  });
});
