/**
 * What the service's parts need, built once by `createService` (the
 * composition root) and handed to routes and actions.
 */

import type { Logger } from 'pino';
import type { AuthCache } from './access/auth-cache.js';
import type { Clock } from './common/clock.js';
import type { Sealer } from './crypto/encryption.js';
import type { RefreshCookieSettings } from './http/refresh-cookie.js';
import type { OutboundNetwork } from './net/outbound-guard.js';
import type { ProviderNetwork } from './oauth/providers.js';
import type { CounterStore } from './rate-limit/counter-store.js';
import type { RefreshTokenChain } from './sessions/refresh-rotation.js';
import type { SessionRevocations } from './sessions/revocations.js';
import type { SessionCache } from './sessions/session-cache.js';
import type { ChangeFeed } from './storage/change-feed.js';
import type { Db } from './storage/db.js';
import type { AccessTokens } from './tokens/access-tokens.js';
import type { SigningKeys } from './tokens/signing-keys.js';
import type { UserCache } from './users/user-cache.js';

/** What the routes need, built once by `createService`. */
export interface Deps {
  /** The database; handlers pass it (or a transaction on it) to store functions. */
  db: Db;
  clock: Clock;
  signingKeys: SigningKeys;
  accessTokens: AccessTokens;
  /** Seals and opens the secrets of project configs (OAuth client secrets, SMTP passwords). */
  configSealer: Sealer;
  /** Seals and opens the bodies of the e-mail outbox (`mail/sealed-mail.ts`); `db` carries it too. */
  mailSealer: Sealer;
  bodyLimitBytes: number;
  /** Projects and their keys as request authentication reads them, cached per project. */
  authCache: AuthCache;
  /** Users as `GET /users/me` answers them, cached per user. */
  users: UserCache;
  /** The storage's change feed: actions announce their events' stale caches on it after commit (`events/recorder.ts`). */
  changes: ChangeFeed;
  /** Lower-case name of the trusted header holding the client's country code (e.g. `cf-ipcountry`), or null. */
  countryHeader: string | null;
  /** The origin the service is reached at from browsers (provider callback URLs), or null for the request's. */
  publicUrl: string | null;
  /** The refresh-token cookie mode's settings (`refresh-cookie.ts`), or null when it is off (the default). */
  refreshCookie: RefreshCookieSettings | null;
  /** Sessions revoked anywhere, whose access tokens are refused at once. */
  revocations: SessionRevocations;
  /** Sessions as a refresh finds them by refresh token, cached. */
  sessions: SessionCache;
  /** The next refresh token of a session whose token rotates (`sessions/refresh-rotation.ts`). */
  refreshTokens: RefreshTokenChain;
  /** Whether failed sign-ins hold the account and the client back (`rate-limit/attempt-limits.ts`). */
  attemptLimits: boolean;
  /** Where the limits on guessing count (the database, or Redis): `rate-limit/counter-store.ts`. */
  counters: CounterStore;
  /** How the service reaches OAuth providers. */
  oauthNetwork: ProviderNetwork;
  /** Check every answer against its route's schema and every known error against its declaration (tests). */
  strict: boolean;
  /** A developer's machine (`ServiceOptions.development`): new owned projects allow localhost. */
  development: boolean;
  /** Whether `shared` OAuth providers may use the development stand-in (`ServiceOptions.allowDevelopmentProvider`). */
  allowDevelopmentProvider: boolean;
  /** Most projects one owner may own through `POST /internal/projects`. */
  maxProjectsPerOwner: number;
  /** How the service reaches hosts that projects name (SMTP servers, OpenID issuers): `net/outbound-guard.ts`. */
  outbound: OutboundNetwork;
  /** The service's logger, for details kept out of answers; null when logging is off. */
  logger: Logger | null;
}
