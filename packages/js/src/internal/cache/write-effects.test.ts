import { describe, expect, it } from 'vitest';
import { keysChangedBy } from './write-effects.js';

describe('the keys a write makes out of date', () => {
  it('are those of the resource written to, plus what every write may change', () => {
    expect(keysChangedBy('PATCH', '/users/u1')).toEqual([
      ['users'],
      ['user'],
      ['teams'],
      ['team'],
      ['auditEvents'],
      ['sentEmails'],
      ['metrics'],
    ]);
    expect(keysChangedBy('POST', '/internal/api-keys')).toEqual([
      ['apiKeySets'],
      ['auditEvents'],
      ['sentEmails'],
      ['metrics'],
    ]);
    expect(keysChangedBy('DELETE', '/team-invitations/i1?team_id=t1')).toContainEqual(['team']);
  });

  it('are none for reads, including the POSTs that read', () => {
    expect(keysChangedBy('GET', '/users')).toEqual([]);
    expect(keysChangedBy('POST', '/email-templates/magic_link/preview')).toEqual([]);
    expect(keysChangedBy('POST', '/connected-accounts/u1/github/access-token')).toEqual([]);
  });

  it('are every key for a resource the table does not know', () => {
    expect(keysChangedBy('POST', '/something-new')).toEqual([[]]);
  });
});
