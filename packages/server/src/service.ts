/**
 * `createService`: the Latchkey service as a standard fetch handler (Hono),
 * every route under `/api/v1`.
 */
import { isKnownError } from '@latchkey/protocol';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { AuthCache, readAuthData } from './access/auth-cache.js';
import type { Clock } from './common/clock.js';
import { createSealer } from './crypto/encryption.js';
import { randomRequestId } from './crypto/random.js';
import { secretWeakness } from './crypto/secret-strength.js';
import { type DashboardOptions, mountDashboard } from './dashboard/dashboard.js';
import type { Deps } from './deps.js';
import { actionGuard, routesNotYetActions } from './events/action-guard.js';
import { startHousekeeping } from './housekeeping.js';
import { clientAddress, proxyTrust } from './http/client-address.js';
import type { AppEnv, RequestRecord } from './http/env.js';
import { mountRoutes } from './http/mount-routes.js';
import {
  type RefreshCookieSettings,
  type RefreshTokenCookieOptions,
  refreshCookieSettings,
} from './http/refresh-cookie.js';
import { defaultLogger, finishResponse } from './http/request-log.js';
import { knownErrorResponse, rateLimitedResponse, StatusRefusal, textResponse } from './http/responses.js';
import { mountMailbox } from './mail/mailbox.js';
import { OutboxWorker } from './mail/outbox-worker.js';
import { outboxSealer, withOutboxSealer } from './mail/sealed-mail.js';
import { Transports } from './mail/transports.js';
import { mountRootPage } from './meta/root-page.js';
import { outboundNetwork } from './net/outbound-guard.js';
import { ProviderCaches, type ProviderNetwork } from './oauth/providers.js';
import { PasswordHasher } from './password/passwords.js';
import { configSealerPurpose } from './projects/config-secrets.js';
import { defaultMaxProjectsPerOwner } from './projects/projects.js';
import { isLocalhostName } from './projects/trusted-urls.js';
import type { CounterStore } from './rate-limit/counter-store.js';
import { databaseCounters } from './rate-limit/database-counters.js';
import { RateLimitExceeded } from './rate-limit/rate-limit.js';
import { RedisUnavailableError, redisCounters } from './rate-limit/redis-counters.js';
import { apiRoutes } from './routes.js';
import { RefreshTokenChain } from './sessions/refresh-rotation.js';
import { SessionRevocations } from './sessions/revocations.js';
import { SessionCache } from './sessions/session-cache.js';
import { changeFeedOf } from './storage/change-feed.js';
import type { Db } from './storage/db.js';
import { isDatabaseUnavailable, unavailableRetryAfterSeconds } from './storage/db-faults.js';
import { dbOf, type Storage } from './storage/open-storage.js';
import { AccessTokens } from './tokens/access-tokens.js';
import { SigningKeys, signingKeyPurpose } from './tokens/signing-keys.js';
import { UserCache } from './users/user-cache.js';
import { webhookSecretPurpose } from './webhooks/webhook-secrets.js';
import { WebhookWorker } from './webhooks/webhook-worker.js';

/** Options of `createService`. */
export interface ServiceOptions {
  /** The open database (`openStorage`). */
  storage: Storage;
  /** Master secret, at least 32 characters; encrypts signing keys at rest. Keep it for the life of the data. */
  secret: string;
  /**
   * Other master secrets whose sealed data this instance still opens, though it
   * seals only with `secret`: the way to rotate the secret with instances
   * running (docs/deploying.md, "Rotating the master secret"). Default none.
   */
  acceptedSecrets?: readonly string[];
  /**
   * Password hashes run at once in this process (argon2id is CPU-bound; the
   * others wait): default one fewer than the cores (which keeps a core for
   * everything else), all of them on a machine of one or two. Raise it on a
   * machine that does little but sign people in.
   */
  hashingSlots?: number;
  /** Time source in epoch ms (token `iat`/`exp`, expiry checks, timestamps). Default `Date`. */
  clock?: Clock;
  /** A pino logger, or `false` for none. Default: pino to stdout, levels by name. One line per request. */
  logger?: Logger | false;
  /** Largest accepted request body. Default 100 KiB. */
  bodyLimitBytes?: number;
  /**
   * Header that a trusted reverse proxy sets or appends the client's address
   * to, e.g. `x-forwarded-for`, or `cf-connecting-ip` behind Cloudflare. The
   * entry `trustedProxyHops` from the right is used: what the client itself
   * wrote there is ignored. Only set it when every request passes through
   * such a proxy: clients can send the header too. A header that is missing,
   * too short or not an address gives the socket's address. Default: none;
   * the socket's address is used (docs/deploying.md, "Behind a proxy").
   */
  trustedProxyHeader?: string;
  /**
   * How many proxies in a row append to `trustedProxyHeader`: the client's
   * address is that many entries from the right. 1 (the default) for one
   * nginx (`proxy_add_x_forwarded_for`), AWS ALB, Traefik, Caddy or Heroku,
   * and for a single-value header; 2 for a CDN or load balancer in front of
   * nginx, and so on.
   */
  trustedProxyHops?: number;
  /**
   * Check every answer against its route's declared schema and every known
   * error against the route's declared errors, answering 500 on a mismatch.
   * For tests; default false.
   */
  strict?: boolean;
  /**
   * A request header set by a proxy you trust to hold the client's country
   * (ISO 3166 alpha-2), e.g. `cf-ipcountry` behind Cloudflare. Recorded at
   * sign-up and sign-in for the metrics' `users_by_country`. Default none.
   */
  countryHeader?: string;
  /**
   * How long request authentication may reuse a project and its keys read
   * from the database, in ms (default 5000; 0 reads them on every request).
   * Changes made through any instance sharing the database reach this one at
   * once regardless; this bounds only changes written by other means.
   */
  authCacheTtlMs?: number;
  /**
   * The operator's SMTP server for projects whose `email_config` is `shared`,
   * e.g. `smtp://user:pass@smtp.example.com:587` (STARTTLS when offered) or
   * `smtps://...:465` (implicit TLS). Projects with a `standard` config use
   * their own server. Default none: shared mail goes to the dev mailbox in dev
   * mode, and otherwise fails with "no SMTP server configured".
   */
  smtpUrl?: string;
  /**
   * Sender of shared mail: `Name <address>`, or an address shown with the
   * project's name. Default `noreply@` the SMTP server's host.
   */
  smtpFrom?: string;
  /**
   * Dev mode: shared mail without `smtpUrl` lands in the dev mailbox, served
   * at `/mailbox` (page) and `/mailbox/api/messages?to=` (JSON). Never turn it
   * on in production: the mailbox shows every mail to anyone. Default false
   * (those paths answer 404). With it on, the service answers only requests
   * addressed to a loopback name (`localhost`, `*.localhost`, `127.x.x.x`,
   * `[::1]`; 421 otherwise), so that a web page cannot read the mailbox
   * through a name of its own that it points at 127.0.0.1 (DNS rebinding).
   */
  devMailbox?: boolean;
  /**
   * The admin dashboard at `/dashboard` (`dashboard/dashboard.ts`): the
   * directory of its build and the config its page reads. Default none
   * (those paths answer 404).
   */
  dashboard?: DashboardOptions;
  /**
   * With the dev mailbox on, host names answered besides the loopback ones,
   * e.g. `['dev.example.test']` for a tunnel or a name in `/etc/hosts` you
   * chose. Default none. Production (no dev mailbox) checks no host.
   */
  allowedHosts?: readonly string[];
  /** Real-time interval of the outbox worker's safety-net pass in ms (default 30 000). */
  mailPollIntervalMs?: number;
  /** Real-time interval of the webhook worker's safety-net pass in ms, which sends the retries come due (default 10 000). */
  webhookPollIntervalMs?: number;
  /**
   * Growing back-off after failed password sign-ins, per account and per
   * client address, and the limit on sign-ups per client address (429 with
   * `Retry-After`). Default on; turn it off only for benchmarks that guess on
   * purpose. How many attempts each allows is a project setting
   * (`config.rate_limits`).
   */
  attemptLimits?: boolean;
  /**
   * A Redis to keep the counters of the limits on guessing in, e.g.
   * `redis://:password@redis.internal:6379` (`rediss://` for TLS), shared by
   * every instance. Default none: they are kept in the database. While Redis
   * does not answer, requests that check a limit are answered 503 with
   * `Retry-After`, as when the database is down; `close` closes the connection.
   */
  redisUrl?: string;
  /**
   * The origin browsers reach the service at, e.g. `https://auth.example.com`:
   * the OAuth callback URLs registered at providers are
   * `<publicUrl>/api/v1/auth/oauth/callback/<provider>`. Default: the origin
   * of each request (right unless a proxy rewrites the host).
   */
  publicUrl?: string;
  /**
   * How the service reaches OAuth providers: its `fetch`, and `rewriteUrl`,
   * which maps every provider URL (endpoints, APIs, key sets, the browser's
   * redirect) before use — for an egress proxy, or tests that stand in for a
   * provider on loopback. Default: the global fetch, URLs unchanged.
   */
  oauthProviderNetwork?: Partial<ProviderNetwork>;
  /**
   * The refresh-token cookie mode, for a service on the app's own origin (the
   * host mounts `fetch`, or a proxy forwards `/api/v1` to it): requests that
   * ask for it (the SDK's `tokenStore: 'httponly-cookie'`) get the refresh
   * token in an `HttpOnly` cookie the service sets, reads and clears, and
   * never in a body, so page scripts cannot read it. Such requests must come
   * from the service's own origin or a trusted domain of the project
   * (ORIGIN_NOT_TRUSTED otherwise). `true` for the defaults (`SameSite=Lax`,
   * `Secure` on https, `Path=/api/v1`). Default off: answers stay exactly
   * the wire protocol's.
   */
  refreshTokenCookie?: boolean | RefreshTokenCookieOptions;
  /**
   * A developer's machine (`latchkey dev`, test services): projects created
   * through `POST /internal/projects` allow localhost redirects, and
   * `allowPrivateNetwork` and `allowDevelopmentProvider` default to on.
   * Default false (production): new projects allow only their domains.
   */
  development?: boolean;
  /**
   * Let the hosts that projects name (a `standard` SMTP server, the test
   * e-mail's server, a generic OpenID Connect issuer and the endpoints it
   * publishes) be on private, loopback, link-local or other non-public
   * addresses. Default: `development`. Off, such a host is refused when the
   * connection is opened, on the addresses its name resolves to then (no
   * probing of the service's own network, nor its cloud metadata). Turn it on
   * when those servers really live on your private network.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Let projects sign in through the shared development stand-in of OAuth
   * providers (`type: 'shared'`), where anyone signs in as any made-up
   * identity. Default: `development`. Off, such providers answer
   * OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED; production-mode projects can never use it.
   */
  allowDevelopmentProvider?: boolean;
  /**
   * Most projects one dashboard owner may own through `POST /internal/projects`
   * (PROJECT_LIMIT_REACHED beyond). Default 100. Projects an operator makes with
   * `createProject` or `latchkey projects create` do not count against it.
   */
  maxProjectsPerOwner?: number;
}

/**
 * A running service: a standard fetch handler. It never rejects; failures are
 * answers (known errors, or a 500 whose body holds only the request id).
 *
 * @example
 * const response = await service.fetch(new Request('http://localhost/api/v1/projects/current', { headers }));
 */
export interface Service {
  fetch(request: Request, connection?: ConnectionInfo): Promise<Response>;
  /**
   * Runs the outbox worker now, until no mail is due (it also runs by itself
   * when a mail is queued and on a slow timer). For tests and scripts that
   * must know a mail went out; resolves when done.
   */
  deliverMail(): Promise<void>;
  /**
   * Runs the webhook worker now, until no message is due (it also runs by
   * itself when a message is written and on a timer). For tests and scripts
   * that must know the messages went out; resolves when done.
   */
  deliverWebhooks(): Promise<void>;
  /**
   * Stops the outbox and webhook workers, waiting for a mail being sent, and closes its
   * SMTP connections. Requests still work afterwards but queued mail waits for
   * the next start. Close the service before its storage. Idempotent.
   */
  close(): Promise<void>;
}

/** What the transport knows about a request beyond the request itself. */
export interface ConnectionInfo {
  /** The peer's address (`startServer` passes the socket's). */
  remoteAddress?: string | undefined;
}

/**
 * Creates the service. Mount `fetch` anywhere that speaks the Fetch API, or
 * serve it with `startServer`.
 *
 * @example
 * const storage = await openStorage({ dataDir: '.latchkey' });
 * await bootstrap(storage, { dev: true });
 * const service = createService({ storage, secret: process.env.LATCHKEY_SECRET! });
 * const server = await startServer({ service, port: 8102 });
 * // ... on shutdown: closing the server closes the service (its outbox worker), then the storage.
 * await server.close();
 * await storage.close();
 */
export function createService(options: ServiceOptions): Service {
  const weakness = typeof options.secret === 'string' ? secretWeakness(options.secret) : 'it is not a string';
  if (weakness) {
    throw new TypeError(
      `createService: the master secret is too weak: ${weakness}. Use a random one (openssl rand -base64 32); move an existing database to it with rotateSecret (latchkey rotate-secret).`,
    );
  }
  const clock = options.clock ?? { now: () => Date.now() };
  const passwords = new PasswordHasher(options.hashingSlots);
  passwords.prepareDummyHash();
  const logger = options.logger === false ? null : (options.logger ?? defaultLogger());
  const db = dbOf(options.storage);
  const counters = openCounters(db, options.redisUrl, logger);
  const proxy = proxyTrust(options.trustedProxyHeader, options.trustedProxyHops);
  const secrets = [options.secret, ...(options.acceptedSecrets ?? [])];
  const signingKeys = new SigningKeys(db, createSealer(secrets, signingKeyPurpose), clock);
  const changes = changeFeedOf(options.storage);
  const authCache = new AuthCache({
    load: (projectId) => readAuthData(db, projectId),
    feed: changes,
    ...(options.authCacheTtlMs !== undefined ? { ttlMs: options.authCacheTtlMs } : {}),
  });
  const revocations = new SessionRevocations({ feed: changes, clock, db });
  const development = options.development ?? false;
  const outbound = outboundNetwork({ allowPrivateNetwork: options.allowPrivateNetwork ?? development });
  if (
    options.maxProjectsPerOwner !== undefined &&
    !(Number.isInteger(options.maxProjectsPerOwner) && options.maxProjectsPerOwner >= 0)
  ) {
    throw new TypeError('createService: maxProjectsPerOwner must be a whole number, 0 or more');
  }
  const mailSealer = outboxSealer(secrets);
  const allowedHosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
  const deps: Deps = {
    // Strict mode (tests): a route handler writes only inside an action.
    db: withOutboxSealer(
      options.strict ? db.withPlugin(actionGuard((route) => routesNotYetActions.has(route))) : db,
      mailSealer,
    ),
    clock,
    signingKeys,
    accessTokens: new AccessTokens(signingKeys, clock),
    configSealer: createSealer(secrets, configSealerPurpose),
    mailSealer,
    webhookSealer: createSealer(secrets, webhookSecretPurpose),
    bodyLimitBytes: options.bodyLimitBytes ?? 100 * 1024,
    authCache,
    users: new UserCache({ db, feed: changes }),
    changes,
    countryHeader: options.countryHeader?.toLowerCase() || null,
    publicUrl: options.publicUrl ? new URL(options.publicUrl).origin : null,
    refreshCookie: refreshCookieOption(options.refreshTokenCookie),
    passwords,
    attemptLimits: options.attemptLimits ?? true,
    counters,
    revocations,
    sessions: new SessionCache({ db, feed: changes, revocations }),
    refreshTokens: new RefreshTokenChain(secrets),
    oauthNetwork: {
      fetch: options.oauthProviderNetwork?.fetch ?? outbound.fetch,
      rewriteUrl: options.oauthProviderNetwork?.rewriteUrl ?? ((url) => url),
    },
    oauthCaches: new ProviderCaches(),
    strict: options.strict ?? false,
    development,
    allowDevelopmentProvider: options.allowDevelopmentProvider ?? development,
    sharedMailStaysLocal: (options.devMailbox ?? false) && !options.smtpUrl,
    maxProjectsPerOwner: options.maxProjectsPerOwner ?? defaultMaxProjectsPerOwner,
    outbound,
    logger,
  };

  const transports = new Transports({
    smtpUrl: options.smtpUrl,
    smtpFrom: options.smtpFrom,
    devMailbox: options.devMailbox ?? false,
    sealer: deps.configSealer,
    outbound,
  });
  const worker = new OutboxWorker({
    db,
    clock,
    transports,
    feed: changes,
    sealer: mailSealer,
    logger,
    ...(options.mailPollIntervalMs !== undefined ? { pollIntervalMs: options.mailPollIntervalMs } : {}),
  });

  const webhooks = new WebhookWorker({
    db,
    clock,
    feed: changes,
    sealer: deps.webhookSealer,
    outbound,
    logger,
    ...(options.webhookPollIntervalMs !== undefined ? { pollIntervalMs: options.webhookPollIntervalMs } : {}),
  });

  const api = new Hono<AppEnv>();
  mountRoutes(api, apiRoutes, deps);

  const app = new Hono<AppEnv>();
  app.options('/api/*', (c) => c.body(null, 200));
  app.route('/api/v1', api);
  if (options.devMailbox) mountMailbox(app, deps);
  if (options.dashboard) mountDashboard(app, options.dashboard);
  mountRootPage(app, { dashboard: Boolean(options.dashboard), mailbox: Boolean(options.devMailbox) });
  app.notFound(() => textResponse(404, 'Not found'));
  app.onError((error, c) => {
    const record = c.env.record;
    if (isKnownError(error)) {
      record.errorCode = error.code;
      return knownErrorResponse(error);
    }
    if (error instanceof StatusRefusal) {
      record.errorCode = `STATUS_${error.status}`;
      return textResponse(error.status, error.message);
    }
    if (error instanceof RateLimitExceeded) {
      record.errorCode = 'RATE_LIMITED';
      return rateLimitedResponse(error.retryAfterMs);
    }
    const requestId = record.requestId;
    const down = unavailableStore(error);
    if (down) {
      record.errorCode = `${down.toUpperCase()}_UNAVAILABLE`;
      logger?.warn({ reqId: requestId, err: { name: error.name, message: error.message } }, `${down} unavailable`);
      return unavailableResponse(requestId, down);
    }
    logger?.error(
      { reqId: requestId, err: { name: error.name, message: error.message, stack: error.stack } },
      'failed',
    );
    return textResponse(500, `Something went wrong. Request id: ${requestId}`);
  });

  worker.start();
  webhooks.start();
  const stopHousekeeping = startHousekeeping({ db, clock, logger });
  let closing: Promise<void> | undefined;
  return {
    deliverMail: () => worker.deliverNow(),
    deliverWebhooks: () => webhooks.deliverNow(),
    close() {
      stopHousekeeping();
      closing ??= Promise.all([worker.close(), webhooks.close()])
        .then(() => undefined)
        .finally(() => Promise.all([transports.close(), counters.close()]));
      return closing;
    },
    async fetch(request, connection) {
      const record: RequestRecord = {
        requestId: randomRequestId(),
        startedAt: performance.now(),
        clientIp: clientAddress(request, connection?.remoteAddress, proxy),
      };
      let response: Response;
      try {
        response =
          options.devMailbox && !answersHost(new URL(request.url).hostname, allowedHosts)
            ? textResponse(421, 'This development service answers only requests to localhost.')
            : await app.fetch(request, { record });
      } catch (error) {
        const down = unavailableStore(error);
        if (down) {
          logger?.warn({ reqId: record.requestId, err: String(error) }, `${down} unavailable`);
          response = unavailableResponse(record.requestId, down);
        } else {
          logger?.error({ reqId: record.requestId, err: String(error) }, 'failed');
          response = textResponse(500, `Something went wrong. Request id: ${record.requestId}`);
        }
      }
      return finishResponse(request, response, record, logger);
    },
  };
}

/** The counters of the limits: in Redis when `redisUrl` is set, else in the database. */
function openCounters(db: Db, redisUrl: string | undefined, logger: Logger | null): CounterStore {
  if (redisUrl === undefined) return databaseCounters(db);
  if (!/^rediss?:\/\/./.test(redisUrl)) {
    throw new TypeError('createService: redisUrl must be a redis:// or rediss:// URL');
  }
  return redisCounters(redisUrl, logger);
}

/** The store a failure says is not answering for now (a fault to retry, not a bug), or null. */
function unavailableStore(error: unknown): 'database' | 'redis' | null {
  if (error instanceof RedisUnavailableError) return 'redis';
  return isDatabaseUnavailable(error) ? 'database' : null;
}

function refreshCookieOption(option: ServiceOptions['refreshTokenCookie']): RefreshCookieSettings | null {
  if (!option) return null;
  return refreshCookieSettings(option === true ? {} : option);
}

/** 503 with `Retry-After`: a store is not answering; nothing was done, the client may retry. */
function unavailableResponse(requestId: string, store: 'database' | 'redis'): Response {
  const what = store === 'database' ? 'its database' : 'the Redis that counts its limits';
  const response = textResponse(
    503,
    `The service cannot reach ${what} right now; try again shortly. Request id: ${requestId}`,
  );
  response.headers.set('retry-after', String(unavailableRetryAfterSeconds));
  return response;
}

/** Whether a development service answers a request addressed to `hostname`: loopback names and the allowed ones. */
function answersHost(hostname: string, allowed: ReadonlySet<string>): boolean {
  return isLocalhostName(hostname) || allowed.has(hostname.toLowerCase());
}
