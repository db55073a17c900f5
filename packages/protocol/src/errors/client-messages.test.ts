import { describe, expect, it } from 'vitest';
import { clientMessages } from './client-messages.js';
import { UnknownKnownErrorCode } from './known-error.js';

describe('client messages (spec §8)', () => {
  it('keep the wording the spec fixes', () => {
    expect(clientMessages).toMatchObject({
      oauthCallbackFailed: 'Error signing in during OAuth callback. Please try again.',
      notSignedIn: "User is not signed in but getUser was called with { or: 'throw' }",
      duplicateAppId: 'A Stack client app with the same unique identifier already exists',
      apiKeyExpired: 'expired',
      apiKeyManuallyRevoked: 'manually-revoked',
      noAccessToken: 'No access token available',
      noPrimaryEmail: 'User does not have a primary email',
    });
    expect(clientMessages.unknownKnownErrorCode('X')).toBe('Unknown KnownError code: X');
    expect(new UnknownKnownErrorCode('X', 400, null).message).toBe(clientMessages.unknownKnownErrorCode('X'));
    expect(clientMessages.connectivity('https://a.example')).toContain('https://a.example');
  });
});
