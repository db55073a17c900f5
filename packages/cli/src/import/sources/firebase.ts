import { type SourceItem, withLine } from '../types.js';
import { asObject, bool, jsonArrayElements, millis, parseJsonDocument, text, UnreadableInput } from './input.js';
import type { SourceOptions } from './options.js';
import { addEmail, addOAuth, providerId, user } from './record.js';

/**
 * A Firebase project's password hash parameters, as the console shows them
 * (Authentication → Users → ⋮ → Password hash parameters).
 */
interface FirebaseHashConfig {
  /** `base64_signer_key`. */
  signerKey: string;
  /** `base64_salt_separator`. */
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Reads the hash parameters from the console's block (`hash_config { algorithm:
 * SCRYPT, base64_signer_key: ..., ... }`) or a JSON object with those keys (or
 * `signerKey`, `saltSeparator`, `rounds`, `memCost`).
 */
export function parseFirebaseHashConfig(input: string): FirebaseHashConfig {
  const values: Record<string, string> = {};
  try {
    for (const [k, v] of Object.entries(JSON.parse(input) as Record<string, unknown>)) values[k] = String(v);
  } catch {
    for (const match of input.matchAll(/([a-z_0-9]+)\s*[:=]\s*"?([A-Za-z0-9+/=_-]+)"?/gi))
      values[match[1]!] = match[2]!;
  }
  const pick = (...names: string[]) => names.map((n) => values[n]).find((v) => v !== undefined);
  const algorithm = pick('algorithm', 'hash_algo');
  if (algorithm !== undefined && algorithm.toUpperCase() !== 'SCRYPT') {
    throw new UnreadableInput(`the Firebase hash algorithm ${algorithm} is not supported (SCRYPT is)`);
  }
  const config = {
    signerKey: pick('base64_signer_key', 'signerKey', 'signer_key', 'hash_key') ?? '',
    saltSeparator: pick('base64_salt_separator', 'saltSeparator', 'salt_separator') ?? '',
    rounds: Number(pick('rounds')),
    memCost: Number(pick('mem_cost', 'memCost')),
  };
  return checkHashConfig(config);
}

/** Refuses parameters Firebase never uses, so no hostile cost reaches the store. */
function checkHashConfig(config: FirebaseHashConfig): FirebaseHashConfig {
  if (!config.signerKey || !base64.test(config.signerKey))
    throw new UnreadableInput('the Firebase signer key must be base64');
  if (!base64.test(config.saltSeparator)) throw new UnreadableInput('the Firebase salt separator must be base64');
  if (!Number.isInteger(config.rounds) || config.rounds < 1 || config.rounds > 8) {
    throw new UnreadableInput('the Firebase rounds must be an integer from 1 to 8');
  }
  if (!Number.isInteger(config.memCost) || config.memCost < 1 || config.memCost > 14) {
    throw new UnreadableInput('the Firebase mem_cost must be an integer from 1 to 14');
  }
  return config;
}

/** The `$firebase-scrypt$...` string of a user's hash and salt under the project's parameters. */
function firebaseHash(config: FirebaseHashConfig, salt: string, hash: string): string {
  return (
    `$firebase-scrypt$rounds=${config.rounds},mem_cost=${config.memCost},` +
    `signer_key=${config.signerKey},salt_separator=${config.saltSeparator}$${salt}$${hash}`
  );
}

/**
 * `firebase auth:export users.json --format=json`: `{ "users": [...] }` with
 * `localId`, `email`, `emailVerified`, `passwordHash` and `salt` (base64, the
 * project's modified scrypt), `displayName`, `photoUrl`, `createdAt` (ms),
 * `customAttributes` (JSON text) and `providerUserInfo` (OAuth accounts).
 */
export async function* parseFirebase(input: string, options: SourceOptions = {}): AsyncIterable<SourceItem> {
  const document = parseJsonDocument(input);
  if (!Array.isArray(asObject(document)?.users))
    throw new UnreadableInput('expected the auth:export JSON: { "users": [...] }');
  const config = options.hashConfig === undefined ? undefined : parseFirebaseHashConfig(options.hashConfig);
  for (const { line, value } of jsonArrayElements(input, document, 'users')) {
    const u = asObject(value);
    if (!u) {
      yield { line, problem: 'the user is not a JSON object' };
      continue;
    }
    const id = text(u.localId);
    if (!id) {
      yield { line, problem: 'the user has no localId' };
      continue;
    }
    let passwordHash: string | null = null;
    const hash = text(u.passwordHash);
    if (hash) {
      const salt = text(u.salt) ?? '';
      if (!base64.test(hash) || !base64.test(salt)) {
        yield { line, problem: 'unsupported hash: passwordHash or salt is not base64' };
        continue;
      }
      if (!config) {
        yield {
          line,
          problem:
            'unsupported hash: the user has a password but no Firebase hash parameters were given (--hash-config)',
        };
        continue;
      }
      passwordHash = firebaseHash(config, salt, hash);
    }
    const emails: ReturnType<typeof user>['emails'] = [];
    addEmail(emails, text(u.email), bool(u.emailVerified), true);
    const oauth: ReturnType<typeof user>['oauth'] = [];
    for (const info of Array.isArray(u.providerUserInfo) ? u.providerUserInfo : []) {
      const p = asObject(info);
      const provider = text(p?.providerId);
      const rawId = text(p?.rawId);
      if (!provider || !rawId || provider === 'password' || provider === 'phone') continue;
      addOAuth(oauth, { provider: providerId(provider), account_id: rawId, email: text(p?.email) });
    }
    yield withLine(
      user({
        id,
        emails,
        display_name: text(u.displayName),
        profile_image_url: text(u.photoUrl),
        password_hash: passwordHash,
        client_read_only_metadata: asObject(u.customAttributes),
        signed_up_at_millis: millis(u.createdAt),
        oauth,
      }),
      line,
    );
  }
}
