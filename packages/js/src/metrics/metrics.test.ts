import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeServerUser } from '../users/user-decoder.js';
import { decodeMetrics } from './metrics.js';

const { metrics, serverUser } = recordedAnswers;

describe('decodeMetrics', () => {
  it('maps §15.9 to camelCase, recent users in the server view', () => {
    const answer = { ...metrics, recently_active: [serverUser] };
    expect(decodeMetrics(answer)).toEqual({
      totalUsers: 3,
      dailyUsers: [{ date: '2026-11-23', activity: 2 }],
      dailyActiveUsers: [{ date: '2026-11-23', activity: 1 }],
      usersByCountry: { DE: 2, US: 1 },
      recentlyRegistered: [],
      recentlyActive: [decodeServerUser(serverUser)],
      loginMethods: [{ method: 'password', count: 3 }],
    });
  });

  it.each(Object.keys(metrics))('refuses an answer without %s', (key) => {
    expect(() => decodeMetrics(without(metrics, key))).toThrow(`${key} is missing`);
  });

  it.each([
    ['users_by_country', { DE: 'two' }, 'users_by_country must be an object of numbers'],
    ['users_by_country', [2], 'users_by_country must be an object of numbers'],
    ['daily_users', [{ date: '2026-11-23' }], 'daily_users[0].activity is missing'],
    [
      'recently_registered',
      [without(serverUser, 'server_metadata')],
      'recently_registered[0].server_metadata is missing',
    ],
  ])('refuses %s = %j', (key, value, problem) => {
    expect(() => decodeMetrics(withField(metrics, key, value))).toThrow(problem);
  });
});
