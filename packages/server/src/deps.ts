/**
 * What the service's parts need, built once by `createService` (the
 * composition root) and handed to routes and actions. A lower module
 * declares the few parts it needs as an interface of its own (`RefreshNeeds`,
 * `RequestAuthNeeds`, …) and never names `Deps`; `Deps` is their sum, plus
 * what only routes read. Only route declarations, actions and `service.ts`
 * see it, so nothing it is made of imports it back.
 */

import type { Logger } from 'pino';
import type { RequestAuthNeeds } from './access/request-auth.js';
import type { Clock } from './common/clock.js';
import type { Sealer } from './crypto/encryption.js';
import type { RefreshCookieNeeds } from './http/refresh-cookie.js';
import type { ViewNeeds } from './http/views.js';
import type { OutboundNetwork } from './net/outbound-guard.js';
import type { OAuthNeeds } from './oauth/providers.js';
import type { PasswordHasher } from './password/passwords.js';
import type { CounterStore } from './rate-limit/counter-store.js';
import type { RefreshNeeds } from './sessions/refresh-rotation.js';
import type { ChangeFeed } from './storage/change-feed.js';
import type { Db } from './storage/db.js';
import type { SigningKeys } from './tokens/signing-keys.js';
import type { UserCache } from './users/user-cache.js';

/** What the routes need, built once by `createService`. */
export interface Deps extends RequestAuthNeeds, RefreshNeeds, RefreshCookieNeeds, OAuthNeeds, ViewNeeds {
  /** The database; handlers pass it (or a transaction on it) to store functions. */
  db: Db;
  clock: Clock;
  signingKeys: SigningKeys;
  /** Seals and opens the secrets of project configs (OAuth client secrets, SMTP passwords). */
  configSealer: Sealer;
  /** Seals and opens the bodies of the e-mail outbox (`mail/sealed-mail.ts`); `db` carries it too. */
  mailSealer: Sealer;
  /** Seals and opens the signing secrets of webhook endpoints (`webhooks/webhook-secrets.ts`). */
  webhookSealer: Sealer;
  bodyLimitBytes: number;
  /** Users as `GET /users/me` answers them, cached per user. */
  users: UserCache;
  /** The storage's change feed: actions announce their events' stale caches on it after commit (`events/recorder.ts`). */
  changes: ChangeFeed;
  /** Lower-case name of the trusted header holding the client's country code (e.g. `cf-ipcountry`), or null. */
  countryHeader: string | null;
  /** Password hashing, in this service's hashing slots (`ServiceOptions.hashingSlots`). */
  passwords: PasswordHasher;
  /** Whether failed sign-ins hold the account and the client back (`rate-limit/attempt-limits.ts`). */
  attemptLimits: boolean;
  /** Where the limits on guessing count (the database, or Redis): `rate-limit/counter-store.ts`. */
  counters: CounterStore;
  /** Check every answer against its route's schema and every known error against its declaration (tests). */
  strict: boolean;
  /** A developer's machine (`ServiceOptions.development`): new owned projects allow localhost. */
  development: boolean;
  /** Shared mail lands in the dev mailbox (`devMailbox` without `smtpUrl`): nothing sent with the shared config leaves the machine. */
  sharedMailStaysLocal: boolean;
  /** Most projects one owner may own through `POST /internal/projects`. */
  maxProjectsPerOwner: number;
  /** How the service reaches hosts that projects name (SMTP servers, OpenID issuers): `net/outbound-guard.ts`. */
  outbound: OutboundNetwork;
  /** The service's logger, for details kept out of answers; null when logging is off. */
  logger: Logger | null;
}
