/**
 * The signed-in user's own sessions and security activity through the SDK
 * against the real service (in-process): two apps signed in as one person,
 * one ends the other's session (and then all others), the ended one's
 * refresh is refused; the activity lists the failed sign-in.
 */
import { isKnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { createTestApp, newCredentials, useTestService } from '../test-support/service.js';
import { securityActivityQuery, sessionsQuery } from './own-sessions.js';

const service = useTestService();

/** An app of its own signed in with `credentials`. */
async function signedIn(credentials: { email: string; password: string }) {
  const test = createTestApp(service());
  await test.app.signInWithCredential({ ...credentials, noRedirect: true });
  return { ...test, user: await test.app.getUser({ or: 'throw' }) };
}

describe('CurrentUser sessions', { timeout: 30_000 }, () => {
  it('lists both devices, ends the other one, whose session stops working; then signs out everywhere else', async () => {
    const credentials = newCredentials();
    const first = createTestApp(service());
    await first.app.signUpWithCredential({ ...credentials, noRedirect: true });
    const me = await first.app.getUser({ or: 'throw' });
    const second = await signedIn(credentials);
    const third = await signedIn(credentials);

    const sessions = await me.listSessions();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.isCurrent)).toHaveLength(1);
    const secondsOwn = (await second.user.listSessions()).find((session) => session.isCurrent)!;
    await sessions.find((session) => session.id === secondsOwn.id)!.revoke();
    expect(first.app.getSnapshot(sessionsQuery)).toHaveLength(2);
    // The ended device's next request is refused at once, and so is its refresh: it is signed out.
    await second.app.invalidate('user');
    expect(await second.app.getUser()).toBeNull();

    await me.revokeOtherSessions();
    expect((await me.listSessions()).map((session) => session.isCurrent)).toEqual([true]);
    await third.app.invalidate('user');
    expect(await third.app.getUser()).toBeNull();
    expect(await first.app.getUser()).not.toBeNull();
  });

  it('lists the user’s failed sign-in and the sessions ended in the security activity; [] signed out', async () => {
    const credentials = newCredentials();
    const { app } = createTestApp(service());
    await expect(app.load(securityActivityQuery)).resolves.toEqual([]);
    await app.signUpWithCredential({ ...credentials, noRedirect: true });
    const failed = await createTestApp(service())
      .app.signInWithCredential({ ...credentials, password: 'wrong-horse-9', noRedirect: true })
      .catch((error: unknown) => error);
    expect(isKnownError(failed, 'EMAIL_PASSWORD_MISMATCH')).toBe(true);
    const user = await app.getUser({ or: 'throw' });
    const events = await user.listSecurityActivity();
    expect(events.map((event) => event.type)).toEqual(['sign_in.failed', 'sign_up']);
    expect(events[0]).toMatchObject({ method: 'password', ipAddress: null, occurredAt: expect.any(Date) });
  });
});
