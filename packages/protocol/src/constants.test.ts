import { describe, expect, it } from 'vitest';
import {
  accessTokenIssuer,
  afterAuthReturnToParam,
  apiKeyPrefixes,
  constants,
  cookieNames,
  defaultHandlerPath,
  handlerPages,
  internalProjectId,
} from './constants.js';
import { section, tableRows } from './test-support/wire-protocol.js';

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

describe('cookie names (wire-protocol §8)', () => {
  it('are the names of the cookie table', () => {
    const documented = tableRows(section('## 8.')).map((cells) => cells[0]);
    expect(documented).toEqual(
      expect.arrayContaining([
        `\`${cookieNames.refreshToken('<projectId>')}\``,
        `\`${cookieNames.accessToken}\``,
        `\`${cookieNames.legacyRefreshToken}\``,
        `\`${cookieNames.isHttps}\``,
        `\`${cookieNames.oauthVerifier('<state>')}\``,
      ]),
    );
  });
});

describe('API key prefixes (wire-protocol §6)', () => {
  it('are the documented, distinct prefixes', () => {
    const documented = tableRows(section('## 6.')).map((cells) => cells[1]);
    const prefixes = Object.values(apiKeyPrefixes);
    for (const prefix of prefixes) expect(documented).toContain(`\`${prefix}\``);
    expect(new Set(prefixes).size).toBe(3);
  });
});

describe('handler routes (spec §2)', () => {
  it('are distinct kebab-case pages under a path without a trailing slash', () => {
    expect(defaultHandlerPath).toMatch(/^\/[a-z-]+$/);
    expect(new Set(handlerPages).size).toBe(handlerPages.length);
    for (const page of handlerPages) expect(page).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(handlerPages).toEqual(expect.arrayContaining(['sign-in', 'sign-up', 'sign-out']));
    expect(afterAuthReturnToParam).toBe('after_auth_return_to');
  });
});

describe('tokens and projects (wire-protocol §5.1, §7)', () => {
  it('name the access-token issuer and the internal project as documented', () => {
    expect(section('### 5.1')).toContain(accessTokenIssuer);
    expect(section('### 7.1')).toContain(`\`${internalProjectId}\``);
  });
});
