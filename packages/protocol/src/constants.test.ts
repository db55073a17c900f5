import { describe, expect, it } from 'vitest';
import {
  accessTokenIssuer,
  afterAuthReturnToParam,
  apiKeyPrefixes,
  cookieNames,
  defaultHandlerPath,
  handlerPages,
  internalProjectId,
} from './constants.js';
import { section, tableRows } from './test-support/wire-protocol.js';

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
