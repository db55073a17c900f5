/** Unsigned JWT-shaped tokens for tests: the SDK reads only the payload's `exp`. */

function base64Url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/** A token expiring at `expMs` (epoch ms), or never when `null`. */
export function fakeAccessToken(expMs: number | null, claims: Record<string, unknown> = {}): string {
  const payload = {
    sub: 'user-1',
    iss: 'test',
    iat: 0,
    ...claims,
    ...(expMs === null ? {} : { exp: Math.floor(expMs / 1000) }),
  };
  return `${base64Url(JSON.stringify({ alg: 'ES256', kid: 'test' }))}.${base64Url(JSON.stringify(payload))}.sig`;
}

/** A controllable clock. */
export function testClock(start = Date.UTC(2030, 0, 1)) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}
