import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeSessionList, decodeSessionTokens } from './sessions-api.js';

const { sessionList, signUp } = recordedAnswers;
const [session] = sessionList.items;

describe('decodeSessionList', () => {
  it('maps each session of GET /auth/sessions to camelCase, times as dates', () => {
    expect(decodeSessionList(sessionList)).toEqual([
      {
        id: session!.id,
        userId: 'u1',
        createdAt: new Date(1_700_000_000_000),
        lastUsedAt: new Date(1_700_000_100_000),
        expiresAt: new Date(1_731_536_000_000),
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0',
        browser: 'Firefox',
        os: 'macOS',
        country: 'FR',
        isCurrent: false,
        isImpersonation: true,
      },
    ]);
  });

  it('reads an address and a browser the service did not record as null', () => {
    const unknown = { ...session, ip: null, user_agent: null, browser: null, os: null, country: null };
    expect(decodeSessionList({ items: [unknown] })[0]).toMatchObject({
      ip: null,
      userAgent: null,
      browser: null,
      os: null,
      country: null,
    });
  });

  it.each(Object.keys(session!))('refuses a session without %s, naming items[0].%s', (key) => {
    expect(() => decodeSessionList({ items: [without(session!, key)] })).toThrow(`items[0].${key} is missing`);
  });

  it('refuses an answer without items', () => {
    expect(() => decodeSessionList(without(sessionList, 'items'))).toThrow('items is missing');
  });
});

describe('decodeSessionTokens', () => {
  it('reads the two tokens of POST /auth/sessions', () => {
    expect(decodeSessionTokens({ access_token: signUp.access_token, refresh_token: signUp.refresh_token })).toEqual({
      accessToken: signUp.access_token,
      refreshToken: signUp.refresh_token,
    });
  });

  it('refuses an empty token', () => {
    expect(() => decodeSessionTokens(withField(signUp, 'refresh_token', ''))).toThrow(
      'refresh_token must be a non-empty string',
    );
  });
});
