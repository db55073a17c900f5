/**
 * What the multi-factor tests share: TOTP codes computed from a secret with
 * `otpauth` (as an authenticator app would), a user with TOTP made by server
 * code, and reading a user's sessions and audit trail.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import type { TestService } from '../testing/index.js';
import { type Answer, authHeaders, call, goodPassword, newEmail } from './api.js';

/** A new raw TOTP secret, base64. */
export function newSecret(bytes = 20): string {
  return randomBytes(bytes).toString('base64');
}

/** The six digits an authenticator app shows for the secret (base64 or base32) at `timestamp`. */
export function totpAt(secret: { base64: string } | { base32: string }, timestamp: number): string {
  const key =
    'base64' in secret
      ? new Secret({ buffer: new Uint8Array(Buffer.from(secret.base64, 'base64')).buffer })
      : Secret.fromBase32(secret.base32);
  return TOTP.generate({ secret: key, algorithm: 'SHA1', digits: 6, period: 30, timestamp });
}

/** A user made by server code with a password and, unless `secret` is null, TOTP on. */
export async function userWithTotp(service: TestService, secret: string | null = newSecret()) {
  const email = newEmail('mfa');
  const created = await call(service, 'POST', '/users', {
    headers: authHeaders(service, 'server'),
    json: {
      primary_email: email,
      primary_email_auth_enabled: true,
      password: goodPassword,
      ...(secret === null ? {} : { totp_secret_base64: secret }),
    },
  });
  expect(created.status, created.text).toBe(201);
  return { userId: created.body.id as string, email, password: goodPassword, secret: secret ?? '', user: created.body };
}

/** A password sign-in, as the SDK sends it. */
export function passwordSignIn(service: TestService, who: { email: string; password: string }): Promise<Answer> {
  return call(service, 'POST', '/auth/password/sign-in', {
    headers: authHeaders(service),
    json: { email: who.email, password: who.password },
  });
}

/** `POST /auth/mfa/sign-in` with a TOTP code (or a recovery code, given as `{recovery_code}`). */
export function mfaSignIn(
  service: TestService,
  attemptCode: string,
  proof: string | { recovery_code: string },
  headers = authHeaders(service),
): Promise<Answer> {
  const json =
    typeof proof === 'string'
      ? { code: attemptCode, type: 'totp', totp: proof }
      : { code: attemptCode, type: 'recovery_code', recovery_code: proof.recovery_code };
  return call(service, 'POST', '/auth/mfa/sign-in', { headers, json });
}

/** The user's sessions, as rows. */
export async function sessionCount(service: TestService, userId: string): Promise<number> {
  const row = await dbOf(service.storage)
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every audit row of the project, as text: what must never hold a secret or a code. */
export async function auditText(service: TestService): Promise<string> {
  const rows = await dbOf(service.storage)
    .selectFrom('audit_events')
    .selectAll()
    .where('project_id', '=', service.projectId)
    .execute();
  return JSON.stringify(rows);
}
