import { describe, expect, it } from 'vitest';
import * as business from './business-constants.js';

const { constants } = business;

describe('business constants (spec §9)', () => {
  it('hold the values of the spec', () => {
    expect(constants).toMatchObject({
      refreshTokenCookieMaxAgeSeconds: 31_536_000,
      accessTokenCookieMaxAgeSeconds: 86_400,
      oauthVerifierCookieMaxAgeSeconds: 3_600,
      cookieStorePollMs: 100,
      maxRequiredAccessTokenValidityMs: 60_000,
      requiredAccessTokenValidityMs: 20_000,
      defaultServerSessionExpiresInMs: 31_536_000_000,
      clientAppPrefetchWarningThreshold: 10,
      redirectWaitMs: 2_000,
      networkRetryAttempts: 5,
      networkRetryBaseDelayMs: 1_000,
      maxTimeoutMs: 2 ** 31 - 1,
      cacheConcurrency: 1,
      cacheThrottleMs: 300,
      cacheDropAfterLastSubscriberMs: 5_000,
    });
  });

  it('are each exported on their own with the same value', () => {
    for (const [name, value] of Object.entries(constants)) {
      expect((business as Record<string, unknown>)[name], name).toBe(value);
    }
    expect(Object.keys(business).sort()).toEqual([...Object.keys(constants), 'constants'].sort());
  });

  it('are consistent with each other', () => {
    expect(constants.requiredAccessTokenValidityMs).toBeLessThanOrEqual(constants.maxRequiredAccessTokenValidityMs);
    expect(constants.accessTokenLifetimeSeconds * 1000).toBeGreaterThan(constants.maxRequiredAccessTokenValidityMs);
    expect(constants.maxServerSessionExpiresInMs).toBeGreaterThan(constants.defaultServerSessionExpiresInMs);
    expect(constants.passwordMinLength).toBeLessThan(constants.passwordMaxLength);
    for (const value of Object.values(constants)) {
      if (typeof value === 'number') expect(Number.isSafeInteger(value) && value > 0).toBe(true);
    }
  });
});
