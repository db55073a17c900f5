/**
 * Rate limits for endpoints that cost someone else something (a mail in an
 * inbox, a guess at a code, a new account). Counted in fixed windows in the
 * service's counter store (the database, or Redis: `counter-store.ts`), so
 * every instance sharing it enforces the same limit. How many hits a window
 * allows is the project's setting (`limit-settings.ts`). Over the limit, the
 * request is answered 429 with `Retry-After` (wire-protocol §4.3: the SDKs
 * wait and retry), before anything is written.
 */
import { sha256Hex } from '../crypto/hash.js';
import { type CounterStore, maxWindowMs } from './counter-store.js';
import type { LimitedProject } from './limit-settings.js';

/** A limit: at most `limit` hits per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Thrown when a limit is exceeded; the service answers 429 with `Retry-After`. */
export class RateLimitExceeded extends Error {
  override readonly name = 'RateLimitExceeded';
  constructor(readonly retryAfterMs: number) {
    super('Too many requests; try again later.');
  }
}

/**
 * Counts a hit of `key` (e.g. `reset:<project>:<email>`) and throws
 * `RateLimitExceeded` once it is over `limit`. Call it outside the
 * transaction of the work it guards (a refused request still counts).
 *
 * @example
 * await enforceRateLimit(deps.counters, `reset:${project.id}:${email}`, { limit: 5, windowMs: 600_000 }, deps.clock.now());
 */
export async function enforceRateLimit(
  counters: CounterStore,
  key: string,
  rule: RateLimit,
  now: number,
): Promise<void> {
  if (rule.windowMs > maxWindowMs) throw new Error(`a rate-limit window may be at most ${maxWindowMs} ms`);
  const windowStart = now - (now % rule.windowMs);
  const hits = await counters.countHit(key, { start: windowStart, ms: rule.windowMs }, now);
  if (hits > rule.limit) throw new RateLimitExceeded(windowStart + rule.windowMs - now);
}

/** The window of every limit below; the counts per window are the project's (`limit-settings.ts`). */
const limitWindowMs = 10 * 60_000;

const perWindow = (limit: number): RateLimit => ({ limit, windowMs: limitWindowMs });

/**
 * The per-client limit of password sign-up (`sign_ups_per_client`): room for
 * a classroom or an office behind one address, none for creating accounts by
 * the thousand (68 a second from one client were measured before it). Nothing when
 * the address is unknown.
 *
 * @example
 * await limitSignUps(deps.counters, project, client.ip, deps.clock.now());
 */
export async function limitSignUps(
  counters: CounterStore,
  project: LimitedProject,
  ip: string | null,
  now: number,
): Promise<void> {
  await limitClient(counters, project, 'signup-ip', 'sign_ups_per_client', ip, now);
}

/** One per-client limit of the project's settings (nothing when the client's address is unknown). */
async function limitClient(
  counters: CounterStore,
  project: LimitedProject,
  prefix: string,
  setting: 'sign_ups_per_client' | 'mails_per_client' | 'code_checks_per_client',
  ip: string | null,
  now: number,
): Promise<void> {
  if (ip === null) return;
  await enforceRateLimit(
    counters,
    `${prefix}:${project.id}:${ip}`,
    perWindow(project.config.rate_limits[setting]),
    now,
  );
}

/** What a send endpoint limits: the kind of mail, its address and who asked. */
export interface MailSend {
  /** The mail's kind (`password_reset`, `magic_link`, ...): each kind has its own per-address budget. */
  kind: string;
  email: string;
  /** The client's address; unknown (null) counts only the per-address limit. */
  ip: string | null;
  now: number;
}

/**
 * The limits of an endpoint that mails a code: `mails_per_address` per kind
 * and address, `mails_per_client` per client address (all kinds together).
 * The address is counted as a hash, so the counters hold no e-mail addresses.
 *
 * @example
 * await limitMailSend(deps.counters, project, { kind: 'password_reset', email, ip: client.ip, now });
 */
export async function limitMailSend(counters: CounterStore, project: LimitedProject, send: MailSend): Promise<void> {
  const limits = project.config.rate_limits;
  const address = sha256Hex(send.email.trim().toLowerCase());
  const perAddress = perWindow(limits.mails_per_address);
  await enforceRateLimit(counters, `mail:${send.kind}:${project.id}:${address}`, perAddress, send.now);
  await limitClient(counters, project, 'mail-ip', 'mails_per_client', send.ip, send.now);
}

/**
 * Team invitations a client may send in ten minutes: per inviting user, and
 * per team (its inviters together). Fixed, not project settings: a person
 * invites colleagues a few at a time, and code that invites many at once
 * holds the server key, which these limits do not hold back.
 */
export const invitationLimits = { perInviter: 10, perTeam: 20 } as const;

/**
 * The limits of a client's team invitation (`invitationLimits`), on top of
 * `limitMailSend`'s. Nothing for server or admin code (no `inviterId`).
 *
 * @example
 * await limitInvitations(deps.counters, project, { inviterId: userId, teamId, now });
 */
export async function limitInvitations(
  counters: CounterStore,
  project: LimitedProject,
  invitation: { inviterId: string | null; teamId: string; now: number },
): Promise<void> {
  if (invitation.inviterId === null) return;
  const { perInviter, perTeam } = invitationLimits;
  const { inviterId, teamId, now } = invitation;
  await enforceRateLimit(counters, `invite-user:${project.id}:${inviterId}`, perWindow(perInviter), now);
  await enforceRateLimit(counters, `invite-team:${project.id}:${teamId}`, perWindow(perTeam), now);
}

/**
 * The per-client limit of endpoints that check a code (`code_checks_per_client`;
 * each code also has its own attempt limit, this one slows a client trying
 * many codes).
 *
 * @example
 * await limitCodeChecks(deps.counters, project, client.ip, deps.clock.now());
 */
export async function limitCodeChecks(
  counters: CounterStore,
  project: LimitedProject,
  ip: string | null,
  now: number,
): Promise<void> {
  await limitClient(counters, project, 'code-ip', 'code_checks_per_client', ip, now);
}

/**
 * The per-client limit of starting a passkey sign-in, an anonymous call that
 * stores a challenge (a code row) each time: `code_checks_per_client`, counted
 * apart from the checks, so each started sign-in can also be finished.
 *
 * @example
 * await limitPasskeyChallenges(deps.counters, project, client.ip, deps.clock.now());
 */
export async function limitPasskeyChallenges(
  counters: CounterStore,
  project: LimitedProject,
  ip: string | null,
  now: number,
): Promise<void> {
  await limitClient(counters, project, 'passkey-ip', 'code_checks_per_client', ip, now);
}
