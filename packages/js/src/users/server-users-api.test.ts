import { describe, expect, it } from 'vitest';
import { recordedAnswers, without } from '../test-support/answers.js';
import { decodeUserPage, serverUserBody } from './server-users-api.js';
import { decodeServerUser } from './user-decoder.js';

const { serverUser } = recordedAnswers;

describe('decodeUserPage', () => {
  it('reads the server users of a page and the cursor of the next', () => {
    const page = { items: [serverUser], is_paginated: true, pagination: { next_cursor: 'abc' } };
    expect(decodeUserPage(page)).toEqual({ items: [decodeServerUser(serverUser)], nextCursor: 'abc' });
  });

  it('reads a null cursor, or no pagination at all, as the last page (wire-protocol §12)', () => {
    expect(decodeUserPage({ items: [], pagination: { next_cursor: null } }).nextCursor).toBeNull();
    expect(decodeUserPage({ items: [], is_paginated: false }).nextCursor).toBeNull();
  });

  it('names the field of a malformed page', () => {
    expect(() => decodeUserPage({ items: [without(serverUser, 'server_metadata')] })).toThrow(
      'items[0].server_metadata is missing',
    );
    expect(() => decodeUserPage({ items: [], pagination: {} })).toThrow('pagination.next_cursor is missing');
    expect(() => decodeUserPage({ items: [], pagination: 'next' })).toThrow('pagination must be a JSON object');
  });
});

describe('serverUserBody', () => {
  it('writes every field in its wire name and leaves out what is undefined', () => {
    expect(
      serverUserBody({
        displayName: 'Ada',
        clientMetadata: { a: 1 },
        profileImageUrl: null,
        primaryEmail: 'ada@example.com',
        primaryEmailVerified: true,
        primaryEmailAuthEnabled: false,
        password: 'correct-horse-1',
        passwordHash: '$2b$10$abc',
        otpAuthEnabled: false,
        passkeyAuthEnabled: true,
        clientReadOnlyMetadata: { plan: 'pro' },
        serverMetadata: null,
        selectedTeamId: null,
      }),
    ).toEqual({
      display_name: 'Ada',
      client_metadata: { a: 1 },
      profile_image_url: null,
      primary_email: 'ada@example.com',
      primary_email_verified: true,
      primary_email_auth_enabled: false,
      password: 'correct-horse-1',
      password_hash: '$2b$10$abc',
      otp_auth_enabled: false,
      passkey_auth_enabled: true,
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: null,
      selected_team_id: null,
    });
    expect(serverUserBody({ displayName: undefined })).toEqual({});
  });
});
