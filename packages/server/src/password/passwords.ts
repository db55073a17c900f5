/**
 * Password hashing: argon2id (OWASP parameters: 19 MiB, 2 passes, 1 lane) in
 * the native binding, which runs on the libuv thread pool, not the event loop.
 * Callers hash before they open a transaction, never inside one.
 */
import { randomBytes } from 'node:crypto';
import { constants, KnownError } from '@latchkey/protocol';
import argon2 from 'argon2';

const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, counted in Unicode code points.
 * Call it before `hashPassword`, so an over-long password costs no hashing.
 */
export function checkPasswordRequirements(password: string): void {
  const length = [...password].length;
  if (length < constants.passwordMinLength) {
    throw new KnownError('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength });
  }
  if (length > constants.passwordMaxLength) {
    throw new KnownError('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength });
  }
}

/** An argon2id PHC string for `password`. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options);
}

let dummyHash: Promise<string> | undefined;

/** Computes the throwaway hash ahead of the first unknown-e-mail sign-in, so that one is not slower. */
export function prepareDummyHash(): void {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  dummyHash.catch(() => {
    dummyHash = undefined;
  });
}

/**
 * True when `password` matches `hash`. With no hash (unknown user, or a user
 * without a password) it verifies against a throwaway hash and returns false,
 * so both cases take as long as a wrong password.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    prepareDummyHash();
    await argon2.verify(await dummyHash!, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
