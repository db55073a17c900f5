/**
 * Refreshing a session, and rotating its refresh token where Latchkey holds
 * both ends.
 *
 * Stable for the 2.7 protocol (decision b): Stack's SDK 2.7 keeps only the
 * `access_token` of a refresh answer and sends the refresh token it already
 * has (compat/official-sdk.test.ts shows it), so rotating its token would sign
 * it out at its next refresh. A refresh rotates only when the client can store
 * the new token: in the refresh-token cookie mode (the service writes its own
 * cookie), and for a client that says so with the form field
 * `latchkey_refresh_rotation=1` (our SDK). Linking a provider to a session
 * (`oauth/oauth-flow.ts`) rotates it too: Stack's SDK stores the tokens of that
 * code exchange.
 *
 * A rotation replaces the current token by the next one and keeps the hash of
 * the replaced one, with the time. The replaced token is honoured for
 * `rotationGraceMs` more, and answers the same next token, so two tabs that
 * refresh at once both stay signed in. Presented after that, it is a reuse:
 * two copies of one token were in use, one of them not the user's, and the
 * whole session ends (every token of it refused, the event audited), so that
 * a stolen token stops working for the thief as well as for the user, who
 * signs in again. A token older than the previous one is not known at all
 * (not found, as any unknown token).
 *
 * The next token is derived (HMAC under a key from the master secret) from
 * the session and the hash of the token it replaces, rather than stored: any
 * instance that is shown the replaced token within the window answers the
 * same next token without keeping a token in clear.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';
import type { Clock } from '../common/clock.js';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { crockfordAlphabet } from '../crypto/random.js';
import type { ActionContext } from '../events/recorder.js';
import type { ClientInfo } from '../http/env.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import type { SessionRow } from '../storage/schema.js';
import type { SessionCache } from './session-cache.js';
import { isActivityStale } from './session-store.js';
import { endReusedSession, noteSessionUse, rotateRefreshToken } from './sessions-actions.js';

/**
 * How long a replaced refresh token keeps working: 30 s. Two tabs refreshing
 * at once arrive within a second of each other; the rest covers a refresh
 * whose answer came late, or a client that retries a refused attempt on the
 * SDK's back-off (1 + 2 + 4 + 8 s, at most 1.5 times that). Longer would give
 * a thief's copy that much more time before the reuse ends the session.
 */
export const rotationGraceMs = 30_000;

/** The next refresh tokens of sessions: derived, not stored (see the module documentation). */
export class RefreshTokenChain {
  readonly #keys: Buffer[];

  /** `secrets`: the master secret first, then the ones still accepted during a rotation of it. */
  constructor(secrets: readonly string[]) {
    this.#keys = secrets.map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'latchkey', 'latchkey refresh-token-rotation v1', 32)),
    );
  }

  /** The token that replaces the one hashed `hash` in session `sessionId` (45 Crockford characters, 225 bits). */
  next(sessionId: string, hash: string): string {
    return this.#derive(this.#keys[0]!, sessionId, hash);
  }

  /** The token that replaced `previousHash` when its hash is `currentHash` (under any accepted secret), else null. */
  successor(sessionId: string, previousHash: string, currentHash: string): string | null {
    for (const key of this.#keys) {
      const token = this.#derive(key, sessionId, previousHash);
      if (constantTimeEqual(sha256Hex(token), currentHash)) return token;
    }
    return null;
  }

  #derive(key: Buffer, sessionId: string, hash: string): string {
    const bytes = createHmac('sha512', key).update(`${sessionId}\u0000${hash}`).digest();
    let token = '';
    for (let i = 0; i < 45; i++) token += crockfordAlphabet[bytes[i]! & 31];
    return token;
  }
}

/** What a refresh needs of the service. */
export interface RefreshNeeds {
  db: Db;
  clock: Clock;
  /** Sessions as a refresh finds them by refresh token, cached. */
  sessions: SessionCache;
  /** The next refresh token of a session whose token rotates. */
  refreshTokens: RefreshTokenChain;
  /** This instance's change feed, told of what a refresh's actions make stale. */
  changes: ChangeFeed;
}

/** One refresh: whose session, and whether the client rotates and stores a new token. */
export interface RefreshRequest {
  projectId: string;
  refreshToken: string;
  /** The cookie mode, or a client that asked (`latchkey_refresh_rotation=1`). */
  rotates: boolean;
  now: number;
  country: string | null;
  client: ClientInfo;
}

/** The refreshed session, and the refresh token the client must keep from now on (null: the one it sent). */
export interface Refreshed {
  session: SessionRow;
  refreshToken: string | null;
}

const notFound = () => new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');

/**
 * Refreshes the session of `refreshToken`: rotates it when the client
 * rotates, honours the replaced token within the grace window, and ends the
 * session at a reuse after it. REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED for an
 * unknown, expired or revoked session, and for a reuse.
 */
export async function refreshSession(deps: RefreshNeeds, request: RefreshRequest): Promise<Refreshed> {
  const { projectId, refreshToken, now } = request;
  const presented = sha256Hex(refreshToken);
  // The second pass reads the session again after another request rotated it first.
  for (let pass = 0; pass < 2; pass++) {
    const session = await deps.sessions.find(projectId, refreshToken, now);
    if (!session) throw notFound();
    if (!constantTimeEqual(session.refresh_token_hash, presented)) {
      // The replaced token (the lookup matches no other).
      const rotatedAt = session.refresh_token_rotated_at?.getTime() ?? 0;
      if (now - rotatedAt > rotationGraceMs) {
        await endReusedSession(refreshContext(deps, request), session);
        throw notFound();
      }
      if (!request.rotates) return { session, refreshToken: null };
      const next = deps.refreshTokens.successor(session.id, presented, session.refresh_token_hash);
      // Only when the master secret changed between the two (a rotation of it under way).
      if (next === null) throw notFound();
      return { session, refreshToken: next };
    }
    if (!request.rotates) {
      await recordUse(deps, session, request);
      return { session, refreshToken: null };
    }
    const next = deps.refreshTokens.next(session.id, presented);
    const rotated = await rotateRefreshToken(refreshContext(deps, request), session, presented, sha256Hex(next), now);
    // Rotated or not, what this instance holds of the token is out of date.
    deps.sessions.rotated(projectId, presented);
    if (rotated) {
      await recordUse(deps, session, request);
      return { session, refreshToken: next };
    }
  }
  throw notFound();
}

/** Writes the session's and user's last use when a minute has passed (`isActivityStale`). */
async function recordUse(deps: RefreshNeeds, session: SessionRow, request: RefreshRequest): Promise<void> {
  const { now } = request;
  if (!isActivityStale(session.last_used_at, now)) return;
  // A session revoked, or a user deleted, between the lookup and the write is as gone as one never found.
  // The action's transaction is the one `touchSession` always took: a plain refresh pays for no other.
  if (!(await noteSessionUse(refreshContext(deps, request), session, now, request.country))) throw notFound();
  deps.sessions.touched(session, now);
}

/**
 * The actions of a refresh: in the project refreshed, by nobody known (whoever
 * sent the token may be a thief), from where the request came.
 */
function refreshContext(deps: RefreshNeeds, request: RefreshRequest): ActionContext {
  return {
    db: deps.db,
    clock: deps.clock,
    actor: { type: 'anonymous', id: null },
    projectId: request.projectId,
    userId: null,
    client: request.client,
    feed: deps.changes,
  };
}
