/**
 * Password hashing: argon2id (OWASP parameters: 19 MiB, 2 passes, 1 lane) in
 * `@node-rs/argon2`, a Rust binding shipped prebuilt for every common platform
 * (nothing compiles at install time). Its `hash` and `verify` run on the libuv
 * thread pool, not the event loop. Callers hash before they open a
 * transaction, never inside one.
 *
 * PHC strings are the standard format: hashes written by the `argon2` package
 * (`m=…,p=…,t=…`) verify here, and ours (`m=…,t=…,p=…`) verify there.
 *
 * Hashes imported from elsewhere (`password_hash` on `POST /users`) may be
 * bcrypt (`$2a$`, `$2b$`, `$2y$`), argon2id or argon2i PHC strings with other
 * parameters, or one of the derived-key kinds of `imported-hashes.ts` (scrypt
 * and PBKDF2-SHA256 PHC, Firebase's modified scrypt, Better Auth's scrypt);
 * all verify, within cost bounds that keep a hostile hash from making a
 * sign-in expensive, and are replaced by a hash of the current parameters at
 * the first successful sign-in (`needsRehash`).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { constants, KnownError } from '@latchkey/protocol';
import {
  type Algorithm,
  hash as argon2Hash,
  verify as argon2Verify,
  parseOptions,
  type Version,
} from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { parseDerivedKeyHash, verifyDerivedKey } from './imported-hashes.js';

// The binding's enums are ambient `const enum`s, which isolated modules cannot read: their values, spelled out.
const argon2id = 2 as Algorithm;
const version19 = 1 as Version;
const options = { algorithm: argon2id, version: version19, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** Hash and salt lengths, in bytes, of the hashes we write. */
const outputLength = 32;
const saltLength = 16;

/**
 * PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, counted in Unicode code points.
 * Call it before `hashPassword`, so an over-long password costs no hashing.
 * A password server code sets (`'server'`) has no minimum, as with the
 * original backend: the app's own rules decide; the maximum still bounds the
 * hashing.
 */
export function checkPasswordRequirements(password: string, setBy: 'user' | 'server' = 'user'): void {
  const length = [...password].length;
  if (setBy === 'user' && length < constants.passwordMinLength) {
    throw new KnownError('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength });
  }
  if (length > constants.passwordMaxLength) {
    throw new KnownError('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength });
  }
}

/**
 * How many password hashes run at once, by default: one fewer than the
 * machine's cores, but as many as the cores on a machine of one or two.
 * argon2id at 19 MiB is CPU- and memory-bound; run on all four libuv threads
 * of a 2-core machine, hashes took every core and every other request waited
 * behind them (`GET /users/me` p99 140 ms while 10 connections signed up).
 * Keeping a whole core of two idle for the event loop halved sign-ups
 * instead: measured on 2 cores once session checks read no database, while 10
 * connections sign up, 2 at once give `GET /users/me` p99 16–17 ms (1: 9–10
 * ms) and 87 sign-ups/s (1: 67); alone, sign-ins 121–126/s (1: 101).
 */
export function defaultHashingSlots(cores: number): number {
  return cores <= 2 ? Math.max(1, cores) : cores - 1;
}

/**
 * The password hashing of one service: its hashing slots and their queues,
 * and the throwaway hash an unknown account is checked against. `createService`
 * builds one (`ServiceOptions.hashingSlots`), so two services in one process
 * share none of it; code run without a service (the CLI's operations) builds
 * its own.
 */
export class PasswordHasher {
  /** Hashes running now (at most `#slots`), and how many of them are suspect. */
  #running = 0;
  #runningSuspect = 0;
  /** Waiting hashes: clean ones go before suspect ones (sign-ins whose account or client failed lately). */
  readonly #waiting: (() => void)[] = [];
  readonly #waitingSuspect: (() => void)[] = [];
  #slots: number;
  #dummyHash: Promise<string> | undefined;

  /** `slots`: how many hashes run at once (default `defaultHashingSlots` of this machine). */
  constructor(slots = defaultHashingSlots(availableParallelism())) {
    this.#slots = checkedSlots(slots);
  }

  /** Sets how many password hashes may run at once. */
  setSlots(slots: number): void {
    this.#slots = checkedSlots(slots);
    this.#startWaiting();
  }

  /** Hashes running and waiting for a slot now. */
  state(): { running: number; waiting: number; slots: number } {
    return { running: this.#running, waiting: this.#waiting.length + this.#waitingSuspect.length, slots: this.#slots };
  }

  /** An argon2id PHC string for `password`. */
  hash(password: string): Promise<string> {
    return this.#inSlot(() => argon2Hash(password, options));
  }

  /** Computes the throwaway hash ahead of the first unknown-e-mail sign-in, so that one is not slower. */
  prepareDummyHash(): void {
    this.#dummyHash ??= this.hash(randomBytes(16).toString('hex'));
    this.#dummyHash.catch(() => {
      this.#dummyHash = undefined;
    });
  }

  /**
   * True when `password` matches `hash`. With no hash (unknown user, or a user
   * without a password) it verifies against a throwaway hash and returns false,
   * so both cases take as long as a wrong password. A `suspect` check (its
   * account or client failed lately) waits for a hashing slot behind clean ones.
   */
  async verify(
    hash: string | null,
    password: string,
    options: { suspect?: boolean | undefined } = {},
  ): Promise<boolean> {
    const suspect = options.suspect ?? false;
    if (hash === null) {
      this.prepareDummyHash();
      const dummy = await this.#dummyHash!;
      await this.#inSlot(() => argon2Verify(dummy, password), suspect).catch(() => false);
      return false;
    }
    try {
      // bcrypt reads at most 72 bytes: a longer password must not match on its first 72.
      if (bcryptPattern.test(hash)) return Buffer.byteLength(password) <= 72 && (await bcrypt.compare(password, hash));
      if (hash.startsWith('$argon2')) return await this.#inSlot(() => argon2Verify(hash, password), suspect);
      // Parsed again at each check, bounds included: a stored hash past them never runs.
      const derived = parseDerivedKeyHash(hash);
      return derived !== null && (await this.#inSlot(() => verifyDerivedKey(derived, password), suspect));
    } catch {
      return false;
    }
  }

  /**
   * Suspect hashes (guesses, most likely) may take all slots but one, so a
   * clean sign-in never waits behind guesses for a slot (with one slot, the one).
   */
  #suspectSlots(): number {
    return Math.max(1, this.#slots - 1);
  }

  /** Runs `work` when a hashing slot is free (for a suspect one, one of the slots suspects may take). */
  async #inSlot<T>(work: () => Promise<T>, suspect = false): Promise<T> {
    if (this.#running < this.#slots && (!suspect || this.#runningSuspect < this.#suspectSlots())) {
      this.#running++;
      if (suspect) this.#runningSuspect++;
    } else {
      // `#startWaiting` counts it in as it hands the slot over.
      await new Promise<void>((resolve) => (suspect ? this.#waitingSuspect : this.#waiting).push(resolve));
    }
    try {
      return await work();
    } finally {
      this.#running--;
      if (suspect) this.#runningSuspect--;
      this.#startWaiting();
    }
  }

  /** Hands free slots to waiting hashes: clean ones first, suspect ones within their share. */
  #startWaiting(): void {
    while (this.#running < this.#slots) {
      const clean = this.#waiting.shift();
      if (clean) {
        this.#running++;
        clean();
      } else if (this.#waitingSuspect.length > 0 && this.#runningSuspect < this.#suspectSlots()) {
        this.#running++;
        this.#runningSuspect++;
        this.#waitingSuspect.shift()!();
      } else {
        return;
      }
    }
  }
}

function checkedSlots(slots: number): number {
  if (!Number.isInteger(slots) || slots < 1) throw new TypeError('hashingSlots must be a whole number from 1');
  return slots;
}

/**
 * True when `hash` is not an argon2id hash of the current parameters (imported, or from older settings).
 * The parameters are read by name, so their order in the PHC string does not matter.
 */
export function needsRehash(hash: string): boolean {
  if (!hash.startsWith('$argon2id$')) return true;
  try {
    const current = parseOptions(hash);
    return (
      current.algorithm !== options.algorithm ||
      current.version !== options.version ||
      current.memoryCost !== options.memoryCost ||
      current.timeCost !== options.timeCost ||
      current.parallelism !== options.parallelism ||
      current.outputLen !== outputLength ||
      current.saltLen < saltLength
    );
  } catch {
    return true;
  }
}

const bcryptPattern = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
/** argon2id or argon2i, version 19 or 16 (argon2-cffi before 16.0 wrote none: 16). */
const argon2Pattern =
  /^\$argon2(?:id|i)\$(?:v=(?:16|19)\$)?([mtp]=\d{1,7},[mtp]=\d{1,7},[mtp]=\d{1,7})\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{16,128}$/;

/**
 * A password hash that may be imported: a bcrypt hash ($2a$, $2b$ or $2y$,
 * cost 4 to 14), an argon2id or argon2i PHC string of at most 64 MiB, 10
 * passes and 8 lanes (and at least argon2's own 8 KiB a lane), or a scrypt,
 * PBKDF2-SHA256, Firebase scrypt or Better Auth scrypt hash within the bounds
 * of `imported-hashes.ts`, so that verifying it stays affordable.
 */
export function isImportablePasswordHash(hash: string): boolean {
  const bcryptCost = bcryptPattern.exec(hash)?.[1];
  if (bcryptCost) return Number(bcryptCost) >= 4 && Number(bcryptCost) <= 14;
  if (!hash.startsWith('$argon2')) return parseDerivedKeyHash(hash) !== null;
  const argon = argon2Pattern.exec(hash);
  if (!argon) return false;
  // Parameters in any order (libraries differ), each once.
  const params = new Map(argon[1]!.split(',').map((pair) => [pair[0]!, Number(pair.slice(2))] as const));
  if (params.size !== 3) return false;
  const [memory, passes, lanes] = [params.get('m')!, params.get('t')!, params.get('p')!];
  return lanes >= 1 && lanes <= 8 && memory >= 8 * lanes && memory <= 65_536 && passes >= 1 && passes <= 10;
}
