/**
 * @latchkey/server/testing: a real Latchkey service for integration tests.
 *
 * Each call starts a fresh database (in-memory PGlite, or a fresh schema of
 * `DATABASE_URL` when that is set), a project with a full key set, a clock the
 * test controls, and an HTTP listener on 127.0.0.1 with an ephemeral port.
 * Nothing is mocked.
 *
 * @example
 * import { startTestService } from '@latchkey/server/testing';
 *
 * const service = await startTestService();
 * const response = await service.fetch('/api/v1/projects/current', {
 *   headers: {
 *     'x-stack-project-id': service.projectId,
 *     'x-stack-access-type': 'client',
 *     'x-stack-publishable-client-key': service.keys.publishableClientKey,
 *   },
 * });
 * service.clock.advance(600_000); // access tokens issued so far are now expired
 * await service.close();
 */
import type { Logger } from 'pino';
import { randomCrockford } from '../crypto/random.js';
import { bootstrap, createApiKeySet, createProject, updateProjectConfig } from '../operations.js';
import type { ProjectConfig, ProjectConfigPatch } from '../projects/project-config.js';
import { startServer } from '../server.js';
import { createService, type Service, type ServiceOptions } from '../service.js';
import { dropSchema, openPGlite, openStorage, type Storage, type StorageOptions } from '../storage/open-storage.js';
import { createTestClock, type TestClock } from './clock.js';
import { testSeed } from './seed-cache.js';

export { dropSchema } from '../storage/open-storage.js';
export type { TestClock } from './clock.js';
export {
  type AppFlow,
  appCallbackUrl,
  appErrorUrl,
  authorizeUrl,
  exchangeCode,
  landing,
  TestBrowser,
} from './oauth-browser.js';
export {
  type OidcUpstream,
  type OidcUpstreamOptions,
  startOidcUpstream,
  startUpstreamFor,
  upstreamProvider,
} from './oidc-upstream.js';
export { isPostgresReachable, testPostgresUrl } from './postgres.js';
export { type HeldCredential, type Page, SoftwareAuthenticator } from './software-authenticator.js';

/** The three plaintext keys of a project's key set. */
export interface TestKeys {
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/** Options of `startTestService`. */
export interface TestServiceOptions {
  /** Config of the test project, over the defaults (sign-up and password on, localhost allowed). */
  projectConfig?: ProjectConfigPatch;
  /** Largest accepted request body (default 100 KiB). */
  bodyLimitBytes?: number;
  /** A pino logger; default none. */
  logger?: Logger | false;
  /** The trusted country header (`ServiceOptions.countryHeader`); default none. */
  countryHeader?: string;
  /** The header a trusted proxy sets to the client's address (`ServiceOptions.trustedProxyHeader`); default none. */
  trustedProxyHeader?: string;
  /** Proxies in a row before the service (`ServiceOptions.trustedProxyHops`); default 1. */
  trustedProxyHops?: number;
  /** PostgreSQL URL; default `process.env.DATABASE_URL`; `null` forces embedded PGlite. */
  databaseUrl?: string | null;
  /**
   * The operator's SMTP server for `shared` mail (`ServiceOptions.smtpUrl`),
   * e.g. a loopback peer's `smtp://127.0.0.1:<port>`. Default none: the test
   * service runs in dev mode and shared mail lands in its dev mailbox.
   *
   * @example
   * const peer = await startSmtpPeer();
   * const service = await startTestService({ smtpUrl: peer.url });
   */
  smtpUrl?: string;
  /** Sender of shared mail (`ServiceOptions.smtpFrom`). */
  smtpFrom?: string;
  /** `ServiceOptions.attemptLimits` (default on, as in production). */
  attemptLimits?: boolean;
  /** `ServiceOptions.redisUrl`: count the limits on guessing in this Redis instead of the database. */
  redisUrl?: string;
  /** PostgreSQL only: the storage's timeouts (`StorageOptions.timeouts`), e.g. short ones for fault tests. */
  storageTimeouts?: StorageOptions['timeouts'];
  /** How the service reaches OAuth providers (`ServiceOptions.oauthProviderNetwork`), e.g. stand-ins on loopback. */
  oauthProviderNetwork?: ServiceOptions['oauthProviderNetwork'];
  /** `ServiceOptions.refreshTokenCookie`: the refresh-token cookie mode; default off. */
  refreshTokenCookie?: ServiceOptions['refreshTokenCookie'];
  /**
   * `ServiceOptions.development`: default true, as on a developer's machine
   * (loopback SMTP servers and OpenID issuers reachable, the development
   * provider on, new owned projects allow localhost). `false` runs the
   * production defaults.
   */
  development?: boolean;
  /** `ServiceOptions.allowPrivateNetwork`; default `development`. */
  allowPrivateNetwork?: boolean;
  /** `ServiceOptions.allowDevelopmentProvider`; default `development`. */
  allowDevelopmentProvider?: boolean;
  /** `ServiceOptions.maxProjectsPerOwner`; default 100. */
  maxProjectsPerOwner?: number;
  /** Sign-up to the internal project (dashboard owners), as `bootstrap`'s `internalSignUp`; default open. */
  internalSignUp?: boolean;
  /** `ServiceOptions.allowedHosts`: names the dev-mode service answers besides loopback ones. */
  allowedHosts?: readonly string[];
  /** `ServiceOptions.dashboard`: serve a dashboard build at `/dashboard/`; default none. */
  dashboard?: ServiceOptions['dashboard'];
}

/** A running test service. */
export interface TestService {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** `url + '/api/v1'`. */
  apiUrl: string;
  /**
   * Calls the service in-process (no socket). Accepts a `Request`, or a URL
   * (absolute, or a path such as `/api/v1/users/me`) plus `RequestInit`.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** The test project. */
  projectId: string;
  /** The test project's keys. */
  keys: TestKeys;
  /** The master secret the service runs with (to start a second instance on the same database). */
  secret: string;
  /** The service clock; move it to expire tokens and sessions. */
  clock: TestClock;
  storage: Storage;
  service: Service;
  /** Changes the test project's config (lists replace); returns the new config. */
  setProjectConfig(patch: ProjectConfigPatch): Promise<ProjectConfig>;
  /**
   * The dev mailbox page (`url + '/mailbox'`), or null when the service was
   * given an `smtpUrl` (it is not in dev mode then).
   *
   * @example
   * const messages = await fetch(`${service.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
   */
  mailboxUrl: string | null;
  /**
   * Runs the outbox worker now until no mail is due (by the service clock)
   * and resolves when done: the deterministic way to wait for delivery. The
   * worker also runs by itself as soon as a mail is queued.
   *
   * @example
   * service.clock.advance(60 * 60_000); // past every retry's back-off
   * await service.deliverMail();
   */
  deliverMail(): Promise<void>;
  /**
   * Runs the webhook worker now until no message is due (by the service
   * clock) and resolves when done: the deterministic way to wait for webhook
   * deliveries.
   */
  deliverWebhooks(): Promise<void>;
  /** Creates another project with its own key set (for cross-project checks). */
  createOtherProject(config?: ProjectConfigPatch): Promise<{ projectId: string; keys: TestKeys }>;
  /** Stops the listener and the outbox worker, then drops the database (or its schema). */
  close(): Promise<void>;
}

/** Starts a fresh service; see the module documentation. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const clock = createTestClock();
  const databaseUrl = options.databaseUrl === undefined ? process.env.DATABASE_URL : options.databaseUrl;
  const schema = databaseUrl ? `lk_test_${randomCrockford(12)}` : 'public';
  const storage = databaseUrl
    ? await openStorage({
        databaseUrl,
        schema,
        ...(options.storageTimeouts ? { timeouts: options.storageTimeouts } : {}),
      })
    : await openPGlite({ schema, seed: await testSeed() });
  const dropDatabase = async () => {
    await (databaseUrl ? dropSchema(storage) : storage.close());
  };
  try {
    await bootstrap(storage, { dev: false, internalSignUp: options.internalSignUp ?? true });
    const secret = randomCrockford(48);
    const project = await newProject(storage, 'Test project', options.projectConfig, clock.now(), secret);
    const service = createService({
      storage,
      secret,
      strict: true,
      clock,
      logger: options.logger ?? false,
      ...(options.bodyLimitBytes !== undefined ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
      ...(options.countryHeader !== undefined ? { countryHeader: options.countryHeader } : {}),
      ...(options.trustedProxyHeader !== undefined ? { trustedProxyHeader: options.trustedProxyHeader } : {}),
      ...(options.trustedProxyHops !== undefined ? { trustedProxyHops: options.trustedProxyHops } : {}),
      ...(options.smtpUrl !== undefined ? { smtpUrl: options.smtpUrl } : { devMailbox: true }),
      ...(options.smtpFrom !== undefined ? { smtpFrom: options.smtpFrom } : {}),
      ...(options.oauthProviderNetwork !== undefined ? { oauthProviderNetwork: options.oauthProviderNetwork } : {}),
      ...(options.refreshTokenCookie !== undefined ? { refreshTokenCookie: options.refreshTokenCookie } : {}),
      ...(options.attemptLimits !== undefined ? { attemptLimits: options.attemptLimits } : {}),
      ...(options.redisUrl !== undefined ? { redisUrl: options.redisUrl } : {}),
      development: options.development ?? true,
      ...(options.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: options.allowPrivateNetwork } : {}),
      ...(options.allowDevelopmentProvider !== undefined
        ? { allowDevelopmentProvider: options.allowDevelopmentProvider }
        : {}),
      ...(options.maxProjectsPerOwner !== undefined ? { maxProjectsPerOwner: options.maxProjectsPerOwner } : {}),
      ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.dashboard !== undefined ? { dashboard: options.dashboard } : {}),
    });
    const server = await startServer({ service, port: 0, host: '127.0.0.1' }).catch(async (error) => {
      await service.close();
      throw error;
    });
    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      apiUrl: `${server.url}/api/v1`,
      fetch: (input, init) => {
        const request =
          input instanceof Request && init === undefined ? input : new Request(resolveUrl(server.url, input), init);
        return service.fetch(request);
      },
      projectId: project.projectId,
      keys: project.keys,
      secret,
      clock,
      storage,
      service,
      mailboxUrl: options.smtpUrl === undefined ? `${server.url}/mailbox` : null,
      deliverMail: () => service.deliverMail(),
      deliverWebhooks: () => service.deliverWebhooks(),
      setProjectConfig: (patch) => updateProjectConfig(storage, project.projectId, patch, { secret }),
      createOtherProject: (config) => newProject(storage, 'Other project', config, clock.now(), secret),
      close: () => {
        // Closing the server closes the service (its outbox worker) before the database goes.
        closing ??= server.close().finally(() => service.close().finally(dropDatabase));
        return closing;
      },
    };
  } catch (error) {
    await dropDatabase().catch(() => {});
    throw error;
  }
}

function resolveUrl(origin: string, input: Request | string | URL): string {
  if (input instanceof Request) return input.url;
  return new URL(input, origin).toString();
}

async function newProject(
  storage: Storage,
  displayName: string,
  config: ProjectConfigPatch | undefined,
  now: number,
  secret: string,
): Promise<{ projectId: string; keys: TestKeys }> {
  const project = await createProject(storage, { displayName, ...(config ? { config } : {}), now, secret });
  const keys = await createApiKeySet(storage, project.id, { description: 'Test keys', now });
  return {
    projectId: project.id,
    keys: {
      publishableClientKey: keys.publishableClientKey!,
      secretServerKey: keys.secretServerKey!,
      superSecretAdminKey: keys.superSecretAdminKey!,
    },
  };
}
