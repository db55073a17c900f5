/**
 * TOTP (RFC 6238 as authenticator apps and the 2.7 SDK speak it: HMAC-SHA-1,
 * six digits, 30-second steps) over `otpauth`: a maintained implementation
 * of RFC 4226/6238 with no dependencies, so the HOTP truncation and the
 * `otpauth://` URI format are not ours to get wrong. A code is accepted one
 * step either side of the server's (clock drift), and only for a step later
 * than the last one accepted for the user: a code is good once.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';

/** Bytes of a secret the service draws (160 bits, RFC 4226's recommendation). */
const newSecretBytes = 20;

/** How many steps either side of now a code may be from. */
const driftSteps = 1;

/** The bounds of a secret a caller sets (`totp_secret_base64`): 80 to 512 bits. */
const minSecretBytes = 10;
const maxSecretBytes = 64;

/**
 * `totp_secret_base64` of a user write: the raw secret in standard base64,
 * 10 to 64 bytes decoded; `null` turns TOTP off. The message never echoes the value.
 */
export const totpSecretBase64 = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, {
    error: 'must be the secret in standard base64',
  })
  .refine(
    (value) => {
      const bytes = Buffer.from(value, 'base64').length;
      return bytes >= minSecretBytes && bytes <= maxSecretBytes;
    },
    { error: `must decode to ${minSecretBytes} to ${maxSecretBytes} bytes` },
  )
  .nullable()
  .meta({
    description:
      'The TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s) as base64 of its 10 to 64 raw bytes; null turns multi-factor sign-in off and deletes the recovery codes. Never answered.',
  });

/** A six-digit code as a person types it (spaces ignored). */
export const totpCode = z.string().max(20).meta({ description: 'The six-digit code the authenticator app shows.' });

/** A new random secret, as base64 of its bytes (how the service stores secrets). */
export function newTotpSecret(): string {
  return randomBytes(newSecretBytes).toString('base64');
}

function totpOf(secretBase64: string, labels: { issuer?: string; label?: string } = {}): TOTP {
  return new TOTP({
    issuer: labels.issuer ?? '',
    label: labels.label ?? '',
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: new Secret({ buffer: new Uint8Array(Buffer.from(secretBase64, 'base64')).buffer }),
  });
}

/** What an authenticator app is given to enrol a secret: its base32 text and its `otpauth://` URI. */
export function enrolmentOf(
  secretBase64: string,
  labels: { issuer: string; label: string },
): { secret_base32: string; otpauth_uri: string } {
  const totp = totpOf(secretBase64, labels);
  return { secret_base32: totp.secret.base32, otpauth_uri: totp.toString() };
}

/**
 * The time step of `code` when it is right for the secret at `now` (one step
 * of drift either side) and later than `lastStep`; otherwise null. A code of
 * anything but six digits is wrong.
 *
 * @example
 * const step = acceptedStep(secret, body.totp, deps.clock.now(), row.last_totp_step);
 * if (step === null) throw new KnownError('INVALID_TOTP_CODE');
 */
export function acceptedStep(secretBase64: string, code: string, now: number, lastStep: number | null): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secretBase64);
  const delta = totp.validate({ token, timestamp: now, window: driftSteps });
  if (delta === null) return null;
  const step = totp.counter({ timestamp: now }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
