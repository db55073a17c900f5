/**
 * Refresh tokens used to never rotate: a copied refresh token worked for a
 * year beside the user's. They stay stable for the 2.7 protocol's clients
 * (Stack's SDK keeps the token it has), and rotate on every refresh for a
 * client that says it stores the new one, with a grace window for two tabs
 * refreshing at once and reuse detection after it, on PGlite and PostgreSQL,
 * and the same on a second instance.
 */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  countRows,
  expectKnownError,
  refreshGrant,
  signUp,
  userHeaders,
  within,
} from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { postgresUp } from '../test-support/postgres.js';
import { twoInstances } from '../test-support/second-instance.js';
import { startTestService, type TestService } from '../testing/index.js';
import { rotationGraceMs } from './refresh-rotation.js';

function refused(answer: Answer): void {
  expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
}

/** Whether the access token's session still works for `GET /users/me`. */
async function accessWorks(service: TestService, accessToken: string): Promise<boolean> {
  const answer = await call(service, 'GET', '/users/me', {
    headers: userHeaders(service, { access_token: accessToken }),
  });
  return answer.headers.get(h.knownError) === null;
}

describeEachBackend('refresh-token rotation', ({ databaseUrl }) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl });
  });
  afterAll(() => service?.close());

  it('stays stable for 2.7-protocol clients: no refresh_token answered, the same token keeps working', async () => {
    const user = await signUp(service);
    for (let i = 0; i < 3; i++) {
      const answer = await refreshGrant(service, user.refresh_token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).not.toHaveProperty('refresh_token');
      service.clock.advance(rotationGraceMs + 60_000);
    }
  });

  it('refresh tokens never rotated: a client that asks gets a new one each refresh', async () => {
    const user = await signUp(service);
    const first = await refreshGrant(service, user.refresh_token, { rotate: true });
    expect(first.status, first.text).toBe(200);
    expect(first.body.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    expect(first.body.refresh_token).not.toBe(user.refresh_token);
    const second = await refreshGrant(service, first.body.refresh_token, { rotate: true });
    expect(second.body.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    // Still one session, and its access tokens work.
    expect(await accessWorks(service, second.body.access_token)).toBe(true);
  });

  it('two tabs refreshing at once both stay signed in, with the same new token', async () => {
    const user = await signUp(service);
    const sessions = await countRows(service, 'sessions');
    const answers = await Promise.all([
      refreshGrant(service, user.refresh_token, { rotate: true }),
      refreshGrant(service, user.refresh_token, { rotate: true }),
      refreshGrant(service, user.refresh_token, { rotate: true }),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const tokens = new Set(answers.map((answer) => answer.body.refresh_token));
    expect(tokens.size).toBe(1);
    // A tab a little late, still within the window, gets the same one; a 2.7 client just an access token.
    service.clock.advance(rotationGraceMs - 1_000);
    const late = await refreshGrant(service, user.refresh_token, { rotate: true });
    expect(late.body.refresh_token).toBe([...tokens][0]);
    const stable = await refreshGrant(service, user.refresh_token);
    expect(stable.status).toBe(200);
    expect(stable.body).not.toHaveProperty('refresh_token');
    expect(await countRows(service, 'sessions')).toBe(sessions);
    const next = await refreshGrant(service, [...tokens][0]!, { rotate: true });
    expect(next.status, next.text).toBe(200);
  });

  it('a replaced token used after the grace window ends the whole session, audited', async () => {
    const user = await signUp(service);
    const rotated = await refreshGrant(service, user.refresh_token, { rotate: true });
    const current = rotated.body.refresh_token as string;
    service.clock.advance(rotationGraceMs + 1_000);
    // The thief's copy (or the user's, whichever comes second) comes back: the session ends for both.
    refused(await refreshGrant(service, user.refresh_token, { rotate: true }));
    refused(await refreshGrant(service, current, { rotate: true }));
    refused(await refreshGrant(service, current));
    await within(async () => !(await accessWorks(service, rotated.body.access_token)));
    const [event] = await auditEvents(service, { user_id: user.user_id, type: 'session.refresh_token_reused' });
    expect(event).toMatchObject({ actor: { type: 'anonymous' }, data: { session_id: expect.any(String) } });
  });

  it('a 2.7 client that sends a replaced token after the window ends the session too', async () => {
    const user = await signUp(service);
    const rotated = await refreshGrant(service, user.refresh_token, { rotate: true });
    service.clock.advance(rotationGraceMs + 1_000);
    refused(await refreshGrant(service, user.refresh_token));
    refused(await refreshGrant(service, rotated.body.refresh_token));
  });

  it('a token older than the previous one is unknown, and ends nothing', async () => {
    const user = await signUp(service);
    const one = await refreshGrant(service, user.refresh_token, { rotate: true });
    const two = await refreshGrant(service, one.body.refresh_token, { rotate: true });
    service.clock.advance(rotationGraceMs + 1_000);
    refused(await refreshGrant(service, user.refresh_token));
    expect((await refreshGrant(service, two.body.refresh_token, { rotate: true })).status).toBe(200);
  });
});

describe.skipIf(!postgresUp)('refresh-token rotation across two instances', () => {
  const instances = twoInstances();

  it('a token rotated on one instance is honoured within the window and refused after it on the other', async () => {
    const { first, second } = instances;
    const user = await signUp(first);
    // The second instance holds the session in memory, as a stable client's refreshes leave it.
    expect((await refreshGrant(second, user.refresh_token)).status).toBe(200);
    const rotated = await refreshGrant(first, user.refresh_token, { rotate: true });
    expect(rotated.status).toBe(200);
    // Within the window, the second instance answers the same new token.
    const there = await refreshGrant(second, user.refresh_token, { rotate: true });
    expect(there.body.refresh_token).toBe(rotated.body.refresh_token);
    first.clock.advance(rotationGraceMs + 1_000);
    // After it, the replaced token is a reuse there too, even sent as a 2.7 client sends it.
    refused(await refreshGrant(second, user.refresh_token));
    refused(await refreshGrant(first, rotated.body.refresh_token, { rotate: true }));
  });
});
