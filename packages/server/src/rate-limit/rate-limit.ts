/**
 * Rate limits for endpoints that cost someone else something (a mail in an
 * inbox, a guess at a code). Counted in the database, in fixed windows, so
 * every instance sharing it enforces the same limit. Over the limit, the
 * request is answered 429 with `Retry-After` (wire-protocol §4.3: the SDKs
 * wait and retry), before anything is written.
 *
 * Counters of finished windows are pruned on the way: at most once a minute
 * per process and database, a write also deletes the counters of windows that
 * ended more than `maxWindowMs` ago, so the table holds about one window's
 * worth of keys, not every key ever seen.
 */
import { sha256Hex } from '../crypto/hash.js';
import type { Db } from '../storage/db.js';
import { countHit, deleteCountersBefore } from './rate-limit-store.js';

/** A limit: at most `limit` hits per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** The longest window a rule may have; counters older than this are pruned. */
export const maxWindowMs = 60 * 60_000;

/** How often (at most) one process prunes one database's old counters. */
export const pruneIntervalMs = 60_000;

/** Thrown when a limit is exceeded; the service answers 429 with `Retry-After`. */
export class RateLimitExceeded extends Error {
  override readonly name = 'RateLimitExceeded';
  constructor(readonly retryAfterMs: number) {
    super('Too many requests; try again later.');
  }
}

const lastPruned = new WeakMap<Db, number>();

/**
 * Counts a hit of `key` (e.g. `reset:<project>:<email>`) and throws
 * `RateLimitExceeded` once it is over `limit`. Call it with the database, not
 * in the transaction of the work it guards (a refused request still counts).
 *
 * @example
 * await enforceRateLimit(deps.db, `reset:${project.id}:${email}`, { limit: 5, windowMs: 600_000 }, deps.clock.now());
 */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimit, now: number): Promise<void> {
  if (rule.windowMs > maxWindowMs) throw new Error(`a rate-limit window may be at most ${maxWindowMs} ms`);
  await pruneOccasionally(db, now);
  const windowStart = now - (now % rule.windowMs);
  const hits = await countHit(db, key, windowStart);
  if (hits > rule.limit) throw new RateLimitExceeded(windowStart + rule.windowMs - now);
}

/** Deletes counters of windows that cannot be current any more, once per `pruneIntervalMs`. */
async function pruneOccasionally(db: Db, now: number): Promise<void> {
  const last = lastPruned.get(db);
  if (last !== undefined && now - last < pruneIntervalMs && now >= last) return;
  lastPruned.set(db, now);
  // A window that started before now - maxWindowMs has ended, whatever its rule.
  await deleteCountersBefore(db, now - maxWindowMs);
}

const tenMinutes = 10 * 60_000;

/** Mails of one kind to one address (per project): enough for retries, too few to flood an inbox. */
export const mailsPerAddress: RateLimit = { limit: 5, windowMs: tenMinutes };
/** Code mails from one client address (per project, all kinds together). */
export const mailsPerClient: RateLimit = { limit: 30, windowMs: tenMinutes };
/** Code checks and code sign-ins from one client address (per project). */
export const codeChecksPerClient: RateLimit = { limit: 120, windowMs: tenMinutes };

/**
 * Password sign-ups from one client address (per project): room for a
 * classroom or an office behind one address, none for creating accounts by
 * the thousand (issue 11 measured 68 a second from one client).
 */
export const signUpsPerClient: RateLimit = { limit: 100, windowMs: tenMinutes };

/**
 * The per-client limit of password sign-up (`signUpsPerClient`); nothing when
 * the address is unknown.
 *
 * @example
 * await limitSignUps(deps.db, project.id, client.ip, deps.clock.now());
 */
export async function limitSignUps(db: Db, projectId: string, ip: string | null, now: number): Promise<void> {
  if (ip !== null) await enforceRateLimit(db, `signup-ip:${projectId}:${ip}`, signUpsPerClient, now);
}

/** What a send endpoint limits: the kind of mail, its address and who asked. */
export interface MailSend {
  projectId: string;
  /** The mail's kind (`password_reset`, `magic_link`, ...): each kind has its own per-address budget. */
  kind: string;
  email: string;
  /** The client's address; unknown (null) counts only the per-address limit. */
  ip: string | null;
  now: number;
}

/**
 * The limits of an endpoint that mails a code: `mailsPerAddress` per kind and
 * address, `mailsPerClient` per client address. The address is counted as a
 * hash, so the counters hold no e-mail addresses.
 *
 * @example
 * await limitMailSend(deps.db, { projectId: project.id, kind: 'password_reset', email, ip: client.ip, now });
 */
export async function limitMailSend(db: Db, send: MailSend): Promise<void> {
  const address = sha256Hex(send.email.trim().toLowerCase());
  await enforceRateLimit(db, `mail:${send.kind}:${send.projectId}:${address}`, mailsPerAddress, send.now);
  if (send.ip !== null) await enforceRateLimit(db, `mail-ip:${send.projectId}:${send.ip}`, mailsPerClient, send.now);
}

/**
 * The per-client limit of endpoints that check a code (each code also has its
 * own attempt limit; this one slows a client trying many codes).
 *
 * @example
 * await limitCodeChecks(deps.db, project.id, client.ip, deps.clock.now());
 */
export async function limitCodeChecks(db: Db, projectId: string, ip: string | null, now: number): Promise<void> {
  if (ip !== null) await enforceRateLimit(db, `code-ip:${projectId}:${ip}`, codeChecksPerClient, now);
}
