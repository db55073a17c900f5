import { describe, expect, it } from 'vitest';
import { fakeAccessToken } from '../../test-support/tokens.js';
import { accessTokenExpiresAt, decodeJwtPayload, remainingValidityMs } from './jwt.js';

describe('access token expiry', () => {
  it('reads exp in milliseconds', () => {
    expect(accessTokenExpiresAt(fakeAccessToken(1_700_000_000_000))).toBe(1_700_000_000_000);
    expect(remainingValidityMs(fakeAccessToken(1_000_000), 990_000)).toBe(10_000);
  });

  it('treats a token without exp as never expiring', () => {
    expect(accessTokenExpiresAt(fakeAccessToken(null))).toBeNull();
    expect(remainingValidityMs(fakeAccessToken(null), Date.now())).toBe(Number.POSITIVE_INFINITY);
  });

  it('reads UTF-8 payloads and rejects garbage', () => {
    expect(decodeJwtPayload(fakeAccessToken(null, { name: 'Zoë' }))?.name).toBe('Zoë');
    expect(decodeJwtPayload('not-a-jwt')).toBeNull();
    expect(decodeJwtPayload('a.!!!.c')).toBeNull();
  });
});
