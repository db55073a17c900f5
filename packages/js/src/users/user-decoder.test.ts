import { describe, expect, it } from 'vitest';
import { MalformedAnswerError } from '../errors.js';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeClientUser, decodeServerUser } from './user-decoder.js';

const { currentUser, fullUser } = recordedAnswers;

describe('decodeClientUser', () => {
  it('decodes the service’s answer to GET /users/me', () => {
    expect(decodeClientUser(currentUser)).toEqual({
      id: currentUser.id,
      displayName: null,
      primaryEmail: 'alice@example.com',
      primaryEmailVerified: false,
      profileImageUrl: null,
      signedUpAt: new Date(currentUser.signed_up_at_millis),
      clientMetadata: null,
      clientReadOnlyMetadata: null,
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      oauthProviders: [],
      passkeyAuthEnabled: false,
      isMultiFactorRequired: false,
      selectedTeam: null,
    });
  });

  it('maps every client field of spec §3 to camelCase', () => {
    expect(decodeClientUser(fullUser)).toEqual({
      id: 'u1',
      displayName: 'Alice',
      primaryEmail: 'alice@example.com',
      primaryEmailVerified: true,
      profileImageUrl: 'https://img.example/a.png',
      signedUpAt: new Date(1_700_000_000_000),
      clientMetadata: { theme: 'dark' },
      clientReadOnlyMetadata: { plan: 'pro' },
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      oauthProviders: [{ id: 'github', accountId: '42', email: null }],
      passkeyAuthEnabled: true,
      isMultiFactorRequired: false,
      selectedTeam: {
        id: 't1',
        displayName: 'Team',
        profileImageUrl: null,
        clientMetadata: { a: 1 },
        clientReadOnlyMetadata: null,
      },
    });
  });

  it('ignores fields it does not read (selected_team_id, server fields, new fields)', () => {
    const answer = { ...without(fullUser, 'selected_team_id'), server_metadata: { x: 1 }, future_field: true };
    expect(decodeClientUser(answer)).toEqual(decodeClientUser(fullUser));
  });

  it.each(Object.keys(fullUser).filter((key) => key !== 'selected_team_id'))(
    'refuses an answer without %s, naming the field',
    (key) => {
      expect(() => decodeClientUser(without(fullUser, key))).toThrow(new MalformedAnswerError(null, key, 'is missing'));
    },
  );

  it.each([
    ['id', 7, 'id must be a string'],
    ['display_name', 1, 'display_name must be a string or null'],
    ['primary_email_verified', 'yes', 'primary_email_verified must be a boolean'],
    ['signed_up_at_millis', '2024', 'signed_up_at_millis must be a number'],
    ['oauth_providers', {}, 'oauth_providers must be a list'],
    ['oauth_providers', [{ id: 'github', email: null }], 'oauth_providers[0].account_id is missing'],
    ['oauth_providers', ['github'], 'oauth_providers[0] must be a JSON object'],
    ['selected_team', { id: 't1', profile_image_url: null }, 'selected_team.display_name is missing'],
    ['selected_team', 't1', 'selected_team must be a JSON object'],
  ])('refuses %s = %j', (key, value, problem) => {
    expect(() => decodeClientUser(withField(fullUser, key, value))).toThrow(problem);
  });

  it('accepts null metadata (any JSON value) but not a missing one', () => {
    expect(decodeClientUser(withField(currentUser, 'client_metadata', null)).clientMetadata).toBeNull();
    expect(() => decodeClientUser(without(currentUser, 'client_metadata'))).toThrow('client_metadata is missing');
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, 'user', [currentUser], undefined]) {
      expect(() => decodeClientUser(body)).toThrow('the body must be a JSON object');
    }
  });
});

describe('decodeServerUser', () => {
  const { serverUser } = recordedAnswers;

  it('is the client view plus the server fields, the selected team in its server view', () => {
    const client = decodeClientUser(serverUser);
    expect(decodeServerUser(serverUser)).toEqual({
      ...client,
      selectedTeam: { ...client.selectedTeam, createdAt: new Date(1_690_000_000_000), serverMetadata: { tier: 2 } },
      lastActiveAt: new Date(1_700_000_500_000),
      serverMetadata: { stripe: 'cus_1' },
      primaryEmailAuthEnabled: true,
    });
  });

  it.each(['server_metadata', 'last_active_at_millis', 'primary_email_auth_enabled', 'display_name'])(
    'refuses an answer without %s',
    (key) => {
      expect(() => decodeServerUser(without(serverUser, key))).toThrow(`${key} is missing`);
    },
  );

  it('refuses a selected team without its server fields (a client view where the server view belongs)', () => {
    const team = without(serverUser.selected_team, 'created_at_millis');
    expect(() => decodeServerUser(withField(serverUser, 'selected_team', team))).toThrow(
      'selected_team.created_at_millis is missing',
    );
  });

  it('reads a user without a selected team', () => {
    expect(decodeServerUser(withField(serverUser, 'selected_team', null)).selectedTeam).toBeNull();
  });
});
