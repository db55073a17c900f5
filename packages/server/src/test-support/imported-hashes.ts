/**
 * Password hashes as other products write them, computed here from their
 * documented algorithms with known passwords, for the import tests:
 * passlib's scrypt and PBKDF2-SHA256, Firebase's modified scrypt
 * (github.com/firebase/scrypt) and Better Auth's scrypt
 * (better-auth/src/crypto/password.ts), each in the string `password_hash`
 * takes.
 */
import { createCipheriv, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
/** passlib's "adapted" base64: `.` for `+`, no padding. */
const ab64 = (bytes: Buffer) => b64(bytes).replace(/\+/g, '.');

/** passlib's `scrypt.hash` (16-byte salt, 32-byte key): `$scrypt$ln=..,r=..,p=..$<salt>$<key>`. */
export function passlibScrypt(password: string, { ln = 16, r = 8, p = 1 } = {}): string {
  const salt = randomBytes(16);
  const N = 2 ** ln;
  const key = scryptSync(password, salt, 32, { N, r, p, maxmem: 128 * r * (N + 2 + p) + 1024 });
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

/**
 * PBKDF2-HMAC-SHA256 with a 16-byte salt and 32-byte key, in passlib's layout
 * (`$pbkdf2-sha256$29000$…`, adapted base64) or the PHC one (`i=…`, base64).
 */
export function pbkdf2Sha256(password: string, iterations: number, layout: 'passlib' | 'phc'): string {
  const salt = randomBytes(16);
  const key = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  return layout === 'passlib'
    ? `$pbkdf2-sha256$${iterations}$${ab64(salt)}$${ab64(key)}`
    : `$pbkdf2-sha256$i=${iterations}$${b64(salt)}$${b64(key)}`;
}

/** A Firebase project's password hash parameters (console: Users, "Password hash parameters"). */
export interface FirebaseHashConfig {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

/** A new project's parameters: a random 64-byte signer key, Firebase's usual separator and costs. */
export function firebaseHashConfig(): FirebaseHashConfig {
  return { signerKey: randomBytes(64).toString('base64'), saltSeparator: 'Bw==', rounds: 8, memCost: 14 };
}

/**
 * What Firebase stores for `password` (`passwordHash` and `salt` of
 * `auth:export`, base64): the signer key, AES-256-CTR encrypted (zero IV)
 * under the first 32 bytes of scrypt(password, salt ‖ separator, N =
 * 2^mem_cost, r = rounds, p = 1).
 */
export function firebaseUserHash(
  password: string,
  config: FirebaseHashConfig,
  salt = randomBytes(12).toString('base64'),
) {
  const N = 2 ** config.memCost;
  const scryptSalt = Buffer.concat([Buffer.from(salt, 'base64'), Buffer.from(config.saltSeparator, 'base64')]);
  const derived = scryptSync(password, scryptSalt, 64, { N, r: config.rounds, p: 1, maxmem: 256 * N * config.rounds });
  const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
  const passwordHash = Buffer.concat([cipher.update(Buffer.from(config.signerKey, 'base64')), cipher.final()]);
  return { passwordHash: passwordHash.toString('base64'), salt };
}

/** A Firebase user's hash and its project's parameters, as `password_hash` carries them. */
export function firebaseScrypt(config: FirebaseHashConfig, user: { passwordHash: string; salt: string }): string {
  const params = `rounds=${config.rounds},mem_cost=${config.memCost},signer_key=${config.signerKey},salt_separator=${config.saltSeparator}`;
  return `$firebase-scrypt$${params}$${user.salt}$${user.passwordHash}`;
}

/**
 * Better Auth's `hashPassword`: a 16-byte salt as hex, used as that text;
 * scrypt of the NFKC-normalized password, N 16384, r 16, p 1, 64 bytes;
 * stored as `<salt hex>:<key hex>`.
 */
export function betterAuthHash(password: string): string {
  const salt = randomBytes(16).toString('hex');
  const key = scryptSync(password.normalize('NFKC'), salt, 64, {
    N: 16_384,
    r: 16,
    p: 1,
    maxmem: 128 * 16_384 * 16 * 2,
  });
  return `${salt}:${key.toString('hex')}`;
}

/** Better Auth's `salt:key`, as `password_hash` carries it. */
export function betterAuthScrypt(stored: string): string {
  const [salt, key] = stored.split(':');
  return `$better-auth-scrypt$${salt}$${key}`;
}
