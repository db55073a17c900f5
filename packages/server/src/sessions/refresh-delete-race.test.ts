/**
 * A refresh racing the deletion of its user: on PostgreSQL a
 * refresh updated the session and then the user, while deleting the user
 * locked the user and then, through the cascade, its sessions — opposite
 * orders, so the two deadlocked and one answered 500 "deadlock detected".
 * Every path now takes the user's row before its sessions. Each round signs a
 * user up, fires refreshes of its session, sign-ins and one deletion of the
 * user at once: each succeeds or finds the session or user gone, never a 5xx.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authHeaders, call, refreshGrant, signUp } from '../test-support/api.js';
import { describeEachBackend } from '../test-support/backends.js';
import { startTestService, type TestService } from '../testing/index.js';

describeEachBackend('refreshes racing the deletion of their user', ({ databaseUrl }) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl });
  });
  afterAll(() => service?.close());

  it('never deadlock: each refresh succeeds or finds the session gone', async () => {
    const statuses = new Map<string, number>();
    for (let round = 0; round < 15; round++) {
      const user = await signUp(service);
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => refreshGrant(service, user.refresh_token)),
        ...Array.from({ length: 2 }, () =>
          call(service, 'POST', '/auth/password/sign-in', {
            headers: authHeaders(service),
            json: { email: user.email, password: user.password },
          }),
        ),
        call(service, 'DELETE', `/users/${user.user_id}`, { headers: authHeaders(service, 'server') }),
      ]);
      for (const answer of answers) {
        const key = `${answer.status} ${answer.body?.code ?? ''}`.trim();
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    }
    // Refreshes: 200, or the session is gone (401). Sign-ins (status override on): in, or the user is gone.
    const expected = /^200$|^401 REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED$|^200 EMAIL_PASSWORD_MISMATCH$/;
    const failures = [...statuses.keys()].filter((key) => !expected.test(key));
    expect(failures, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
  }, 60_000);
});
