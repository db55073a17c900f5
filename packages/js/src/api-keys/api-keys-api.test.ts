import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeApiKeySet, decodeApiKeySetFirstView, decodeApiKeySetList } from './api-keys-api.js';

const { apiKeySet, apiKeySetFirstView } = recordedAnswers;

describe('decodeApiKeySet', () => {
  it('shows each key by its last four characters, a kind the set lacks as null', () => {
    expect(decodeApiKeySet(apiKeySet)).toEqual({
      id: apiKeySet.id,
      description: 'Backend',
      createdAt: new Date(1_700_000_000_000),
      expiresAt: new Date(1_800_000_000_000),
      manuallyRevokedAt: new Date(1_700_000_500_000),
      publishableClientKey: { lastFour: 'x7k2' },
      secretServerKey: { lastFour: 'a9q4' },
      superSecretAdminKey: null,
    });
  });

  it('reads a set never revoked (no manually_revoked_at_millis) as manuallyRevokedAt null', () => {
    expect(decodeApiKeySet(without(apiKeySet, 'manually_revoked_at_millis')).manuallyRevokedAt).toBeNull();
  });

  it.each([
    ['secret_server_key', 'a9q4', 'secret_server_key must be a JSON object'],
    ['secret_server_key', {}, 'secret_server_key.last_four is missing'],
    ['manually_revoked_at_millis', 'now', 'manually_revoked_at_millis must be a number'],
  ])('refuses %s = %j', (key, value, problem) => {
    expect(() => decodeApiKeySet(withField(apiKeySet, key, value))).toThrow(problem);
  });

  it.each(['id', 'description', 'created_at_millis', 'expires_at_millis'])('refuses a set without %s', (key) => {
    expect(() => decodeApiKeySet(without(apiKeySet, key))).toThrow(`${key} is missing`);
  });

  it('decodes a list, naming the item of a malformed set', () => {
    expect(decodeApiKeySetList({ items: [apiKeySet], is_paginated: false })).toEqual([decodeApiKeySet(apiKeySet)]);
    expect(() => decodeApiKeySetList({ items: [apiKeySet, without(apiKeySet, 'id')] })).toThrow(
      'items[1].id is missing',
    );
  });
});

describe('decodeApiKeySetFirstView', () => {
  it('keeps the keys in full', () => {
    expect(decodeApiKeySetFirstView(apiKeySetFirstView)).toMatchObject({
      manuallyRevokedAt: null,
      publishableClientKey: apiKeySetFirstView.publishable_client_key,
      secretServerKey: apiKeySetFirstView.secret_server_key,
      superSecretAdminKey: null,
    });
  });

  it('refuses an obfuscated key where the full key belongs', () => {
    expect(() =>
      decodeApiKeySetFirstView(withField(apiKeySetFirstView, 'secret_server_key', { last_four: 'a9q4' })),
    ).toThrow('secret_server_key must be a string');
  });
});
