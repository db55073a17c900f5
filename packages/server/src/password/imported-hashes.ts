/**
 * Imported password hashes of the derived-key kinds, verified with Node's own
 * `crypto.scrypt` and `crypto.pbkdf2` (OpenSSL, run on the libuv thread pool,
 * not the event loop; no package of ours needed):
 *
 * - scrypt PHC, passlib's layout: `$scrypt$ln=16,r=8,p=1$<salt>$<key>`
 *   (N = 2^ln);
 * - PBKDF2-SHA256 PHC: `$pbkdf2-sha256$i=600000$<salt>$<key>`, or passlib's
 *   `$pbkdf2-sha256$29000$<salt>$<key>` (its "adapted" base64 writes `.` for `+`);
 * - Firebase's modified scrypt: `$firebase-scrypt$rounds=8,mem_cost=14,
 *   signer_key=<b64>,salt_separator=<b64>$<salt b64>$<hash b64>`, its
 *   project's hash parameters and a user's salt and hash as `auth:export`
 *   gives them. The hash is the project's signer key encrypted with AES-256-CTR
 *   (zero IV) under the first 32 bytes of scrypt(password, salt ‖ separator,
 *   N = 2^mem_cost, r = rounds, p = 1), as in github.com/firebase/scrypt;
 * - Better Auth's scrypt, its `salt:key` hex pair carried as
 *   `$better-auth-scrypt$<salt hex>$<key hex>`: scrypt of the NFKC-normalized
 *   password with the salt's hex text (not its bytes) as salt, N = 16384,
 *   r = 16, p = 1, 64 bytes.
 *
 * Cost bounds, so that a hostile hash cannot make one verification cost more
 * than an importable argon2id one (64 MiB, 10 passes) or bcrypt 14, measured
 * on a loaded 2-core machine at 1.2 s and 2.4 s:
 * - scrypt (all three kinds): 128·N·r ≤ 64 MiB of memory (argon2id's bound)
 *   and 128·N·r·p ≤ 256 MiB mixed (N = 2^16, r = 8, p = 4: 1.3 s). passlib's
 *   default (ln=16, r=8, p=1) is 64 MiB, 4× under the work bound; Firebase's
 *   largest (mem_cost 14, rounds 8) 16 MiB; Better Auth's 32 MiB.
 * - PBKDF2-SHA256: iterations × 32-byte output blocks ≤ 2,000,000 (0.6 s):
 *   passlib's default is 29,000, OWASP's 600,000, Django 5.2's 1,200,000.
 * Salts of 1 to 64 bytes, keys of 16 to 64 bytes (Firebase: its signer key's
 * length, up to 128).
 */
import { createCipheriv, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';

/** The memory of one scrypt computation (128·N·r bytes) may not pass argon2id's bound. */
const scryptMaxMemory = 64 * 1024 * 1024;
/** Nor its work, 128·N·r·p bytes mixed: four lanes of 64 MiB. */
const scryptMaxWork = 256 * 1024 * 1024;
/** PBKDF2-SHA256 iterations times 32-byte blocks of output. */
const pbkdf2MaxWork = 2_000_000;

/** A hash whose check derives bytes from the password and compares them with `expected`. */
interface DerivedKeyHash {
  readonly expected: Buffer;
  derive(password: string): Promise<Buffer>;
}

/**
 * The derived-key hash `hash` describes, or null when it is none of these
 * kinds, is malformed, or its parameters pass the cost bounds.
 */
export function parseDerivedKeyHash(hash: string): DerivedKeyHash | null {
  if (hash.startsWith('$better-auth-scrypt$')) return betterAuthScrypt(hash);
  const [empty, kind, params, salt, key, ...rest] = hash.split('$');
  if (empty !== '' || rest.length > 0 || key === undefined) return null;
  switch (kind) {
    case 'scrypt':
      return scryptPhc(params!, salt!, key);
    case 'pbkdf2-sha256':
      return pbkdf2Phc(params!, salt!, key);
    case 'firebase-scrypt':
      return firebaseScrypt(params!, salt!, key);
    default:
      return null;
  }
}

function scryptPhc(paramText: string, saltText: string, keyText: string): DerivedKeyHash | null {
  const params = numbers(paramText, ['ln', 'r', 'p']);
  const salt = base64(saltText, 1, 64);
  const expected = base64(keyText, 16, 64);
  if (!params || !salt || !expected) return null;
  const cost = scryptCost(params.get('ln')!, params.get('r')!, params.get('p')!);
  if (!cost) return null;
  return { expected, derive: (password) => scryptKey(password, salt, expected.length, cost) };
}

function pbkdf2Phc(paramText: string, saltText: string, keyText: string): DerivedKeyHash | null {
  // passlib writes the bare number; PHC libraries `i=`.
  const iterations = /^\d{1,7}$/.test(paramText) ? Number(paramText) : numbers(paramText, ['i'])?.get('i');
  const salt = base64(saltText, 1, 64);
  const expected = base64(keyText, 16, 64);
  if (iterations === undefined || !salt || !expected) return null;
  if (iterations < 1 || iterations * Math.ceil(expected.length / 32) > pbkdf2MaxWork) return null;
  return {
    expected,
    derive: (password) =>
      new Promise((resolve, reject) =>
        pbkdf2(password, salt, iterations, expected.length, 'sha256', (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  };
}

function firebaseScrypt(paramText: string, saltText: string, hashText: string): DerivedKeyHash | null {
  const params = fields(paramText, ['rounds', 'mem_cost', 'signer_key', 'salt_separator']);
  if (!params) return null;
  const [rounds, memCost] = [params.get('rounds')!, params.get('mem_cost')!];
  if (!/^\d{1,2}$/.test(rounds) || !/^\d{1,2}$/.test(memCost)) return null;
  const signerKey = base64(params.get('signer_key')!, 16, 128);
  const separator = base64(params.get('salt_separator')!, 0, 16);
  const salt = base64(saltText, 1, 64);
  const expected = base64(hashText, 16, 128);
  if (!signerKey || !separator || !salt || !expected || expected.length !== signerKey.length) return null;
  const cost = scryptCost(Number(memCost), Number(rounds), 1);
  if (!cost) return null;
  const fullSalt = Buffer.concat([salt, separator]);
  return {
    expected,
    derive: async (password) => {
      const key = await scryptKey(password, fullSalt, 32, cost);
      const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
      return Buffer.concat([cipher.update(signerKey), cipher.final()]);
    },
  };
}

const betterAuthPattern = /^\$better-auth-scrypt\$([0-9A-Fa-f]{2,128})\$([0-9A-Fa-f]{128})$/;
const betterAuthCost = { N: 16_384, r: 16, p: 1 } as const;

/** Better Auth's hash: its salt is the hex text, used as it stands. */
function betterAuthScrypt(hash: string): DerivedKeyHash | null {
  const match = betterAuthPattern.exec(hash);
  if (!match) return null;
  const salt = match[1]!;
  const expected = Buffer.from(match[2]!, 'hex');
  return { expected, derive: (password) => scryptKey(password.normalize('NFKC'), salt, 64, betterAuthCost) };
}

/** True when `password` derives the hash's bytes. */
export async function verifyDerivedKey(hash: DerivedKeyHash, password: string): Promise<boolean> {
  const derived = await hash.derive(password);
  return derived.length === hash.expected.length && timingSafeEqual(derived, hash.expected);
}

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** N = 2^log2N, r and p, within the bounds; null past them. */
function scryptCost(log2N: number, r: number, p: number): ScryptCost | null {
  if (log2N < 1 || log2N > 24 || r < 1 || p < 1) return null;
  const N = 2 ** log2N;
  if (128 * N * r > scryptMaxMemory || 128 * N * r * p > scryptMaxWork) return null;
  return { N, r, p };
}

function scryptKey(password: string, salt: Buffer | string, length: number, { N, r, p }: ScryptCost): Promise<Buffer> {
  // OpenSSL's own limit, its working memory: 128·r·(N + 2) for the table and 128·r·p for the lanes.
  const maxmem = 128 * r * (N + 2 + p) + 1024;
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `a=1,b=2` with exactly these names, once each, in any order, as whole numbers. */
function numbers(text: string, names: readonly string[]): Map<string, number> | null {
  const found = fields(text, names);
  if (!found || [...found.values()].some((value) => !/^\d{1,10}$/.test(value))) return null;
  return new Map([...found].map(([name, value]) => [name, Number(value)]));
}

/** `a=x,b=y` with exactly these names, once each, in any order. */
function fields(text: string, names: readonly string[]): Map<string, string> | null {
  const found = new Map<string, string>();
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    if (at < 1 || !names.includes(name) || found.has(name)) return null;
    found.set(name, pair.slice(at + 1));
  }
  return found.size === names.length ? found : null;
}

/**
 * Base64 of `min` to `max` bytes: the standard alphabet, padded or not, or
 * with passlib's `.` or the URL-safe `-` and `_` in place of `+` and `/`.
 */
function base64(text: string, min: number, max: number): Buffer | null {
  if (!/^[A-Za-z0-9+/._-]*={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1 || (text.length !== bare.length && text.length % 4 !== 0)) return null;
  const bytes = Buffer.from(bare.replace(/[.-]/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length >= min && bytes.length <= max ? bytes : null;
}
