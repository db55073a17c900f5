import { originFor, parseCommandArgs, parsePort } from '../internal/args.js';
import { Cleanup } from '../internal/cleanup.js';
import { type CliContext, waitForStop } from '../internal/context.js';
import { dashboardOption } from '../internal/dashboard.js';
import { checkSecret } from '../internal/data-dir.js';
import { checkDatabaseUrl } from '../internal/database-url.js';
import { CliError, UsageError } from '../internal/errors.js';
import { createLogger, logLevel } from '../internal/logger.js';
import { checkRefreshTokenCookie } from '../internal/refresh-cookie-env.js';
import {
  checkPortFree,
  checkSecretStrength,
  listenOrFail,
  loadServer,
  openStorageOrFail,
  redactUrl,
  verifySecretOrFail,
} from '../internal/service.js';
import { checkProxyHeader, checkProxyHops, checkPublicUrl, checkRedisUrl, checkSmtpUrl } from '../internal/smtp-url.js';

const startUsage = `Usage: latchkey start [options]

Runs the Latchkey service in production mode against PostgreSQL. Applies
pending migrations, checks that LATCHKEY_SECRET opens the stored signing
keys (the first start seals one under it), creates the internal project if
missing, logs JSON lines (pino) to
stdout and prints the listening URL to stderr. SIGINT or SIGTERM stops it
gracefully: requests in flight finish, then it logs "stopped" and exits 0.
Health: GET /api/v1/health (up) and /api/v1/health/ready (database,
migrations and secret checked; 503 when one fails).

The administration is closed: nobody signs up to the internal project (the
dashboard's), so owners are made with \`latchkey owners create\`; a start
closes it again on a database that an older version left open. Hosts that
projects name (their SMTP servers, OpenID issuers) must be on public
addresses, and the shared development provider is off.

Options:
  -p, --port <n>       port to listen on (default $PORT, else 8102)
      --host <host>    interface to listen on (default $HOST, else 0.0.0.0)
      --schema <name>  PostgreSQL schema of the tables (default public)
      --open-sign-up   let anyone sign up to the internal project and so
                       create projects (default closed)
      --max-projects-per-owner <n>
                       most projects one owner creates from the dashboard
                       (default 100)
      --allow-private-network
                       let projects' SMTP servers and OpenID issuers be on
                       private, loopback or link-local addresses
      --allow-development-provider
                       let non-production projects sign in through the shared
                       development stand-in (anyone signs in as anyone)
      --no-dashboard   do not serve the admin dashboard at /dashboard/
  -h, --help           show this help

Environment:
  DATABASE_URL         PostgreSQL connection string (required)
  LATCHKEY_SECRET      master secret, 32+ characters (required); it encrypts
                       signing keys at rest, so keep it stable
  LATCHKEY_ACCEPTED_SECRET
                       another master secret whose sealed data is still
                       opened but never sealed with: a rotation with
                       instances running (see latchkey rotate-secret)
  LATCHKEY_LOG_LEVEL   fatal, error, warn, info (default), debug, trace
                       or silent
  LATCHKEY_SMTP_URL    SMTP server for projects with the shared e-mail
                       config, e.g. smtp://user:pass@host:587 (smtps:// for
                       implicit TLS); without it their mail fails ("no SMTP
                       server configured") and projects need their own
  LATCHKEY_SMTP_FROM   sender of that mail, "Name <address>" or an address
                       (default noreply@ the SMTP host)
  LATCHKEY_TRUSTED_PROXY_HEADER
                       the header your proxy or load balancer sets or appends
                       the client's address to, e.g. x-forwarded-for; set it
                       only when every request passes through that proxy.
                       Without it the client address is the proxy's, and the
                       per-address limits on guessing count every client
                       together
  LATCHKEY_TRUSTED_PROXY_HOPS
                       how many proxies in a row append to that header: the
                       client's address is that many entries from the right
                       (default 1: nginx, AWS ALB, Traefik, Caddy, Heroku;
                       2 for a load balancer in front of nginx)
  LATCHKEY_PUBLIC_URL  the origin browsers reach the service at, e.g.
                       https://auth.example.com: OAuth providers call back to
                       <it>/api/v1/auth/oauth/callback/<provider> (default:
                       the origin of each request); the dashboard's sign-in
                       links and redirects come back to <it>/dashboard/
  LATCHKEY_DASHBOARD_DIR
                       serve the dashboard from this directory of its build
                       (default: the installed @latchkey/dashboard)
  LATCHKEY_REFRESH_TOKEN_COOKIE
                       lax or strict: the refresh-token cookie mode, for a
                       service on the app's own origin (the SDK's tokenStore
                       'httponly-cookie'), with that SameSite (default off)
  LATCHKEY_OPEN_SIGN_UP, LATCHKEY_MAX_PROJECTS_PER_OWNER,
  LATCHKEY_ALLOW_PRIVATE_NETWORK, LATCHKEY_ALLOW_DEVELOPMENT_PROVIDER
                       the same as the flags above (true or false; a number)
  REDIS_URL            a Redis to count the limits on guessing in, e.g.
                       redis://:password@redis.internal:6379 (rediss:// for
                       TLS), shared by every instance (default: they are
                       counted in PostgreSQL); while it does not answer,
                       requests that check a limit are answered 503
`;

export interface StartOptions {
  databaseUrl: string;
  secret: string;
  /** Other master secrets the data may be sealed with (`LATCHKEY_ACCEPTED_SECRET`), during a rotation. */
  acceptedSecrets?: readonly string[] | undefined;
  /** Default 8102. */
  port?: number;
  /** Default `0.0.0.0`. */
  host?: string;
  /** PostgreSQL schema of the tables; default `public`. */
  schema?: string;
  /** pino level of the JSON log on stdout; default `info`. */
  logLevel?: string;
  /** The header a trusted proxy sets to the client's address (`LATCHKEY_TRUSTED_PROXY_HEADER`). */
  trustedProxyHeader?: string | undefined;
  /** Proxies in a row that append to that header (`LATCHKEY_TRUSTED_PROXY_HOPS`); default 1. */
  trustedProxyHops?: number | undefined;
  /** The origin browsers reach the service at (`LATCHKEY_PUBLIC_URL`); default each request's. */
  publicUrl?: string | undefined;
  /** SMTP server for shared mail (`LATCHKEY_SMTP_URL`); default none. */
  smtpUrl?: string | undefined;
  /** Sender of shared mail (`LATCHKEY_SMTP_FROM`). */
  smtpFrom?: string | undefined;
  /** The refresh-token cookie mode with its SameSite (`LATCHKEY_REFRESH_TOKEN_COOKIE`); default off. */
  refreshTokenCookie?: 'Lax' | 'Strict' | undefined;
  /** A Redis for the counters of the limits on guessing (`REDIS_URL`); default the database. */
  redisUrl?: string | undefined;
  /** Anyone may sign up to the internal project (`--open-sign-up`); default closed, and closed again at each start. */
  openSignUp?: boolean | undefined;
  /** Most projects one owner creates from the dashboard (`--max-projects-per-owner`); default 100. */
  maxProjectsPerOwner?: number | undefined;
  /** Projects' SMTP servers and OpenID issuers may be on private addresses (`--allow-private-network`). */
  allowPrivateNetwork?: boolean | undefined;
  /** The shared development stand-in of OAuth providers is offered (`--allow-development-provider`). */
  allowDevelopmentProvider?: boolean | undefined;
  /** Serve the admin dashboard at `/dashboard/` when its build is installed (default true; `--no-dashboard`). */
  dashboard?: boolean | undefined;
}

/**
 * Starts the service against PostgreSQL in production mode and resolves once
 * it listens; `url` is one a browser can open (loopback when listening on all
 * interfaces). Rejects, before listening or writing, when the secret does not
 * open the stored signing keys. `close` lets requests in flight finish.
 *
 * @example
 * const running = await startProduction({ databaseUrl: process.env.DATABASE_URL!, secret: process.env.LATCHKEY_SECRET! });
 * console.error(`listening on ${running.url}`);
 */
export async function startProduction(
  options: StartOptions,
): Promise<{ url: string; dashboardUrl: string | null; close(): Promise<void> }> {
  const secret = checkSecret(options.secret, 'LATCHKEY_SECRET');
  const databaseUrl = checkDatabaseUrl(options.databaseUrl);
  const logger = createLogger({ level: options.logLevel, fallback: 'info', to: 'stdout' });
  const server = await loadServer();
  checkSecretStrength(server, secret, 'LATCHKEY_SECRET');
  const port = options.port ?? 8102;
  const host = options.host ?? '0.0.0.0';
  const cleanup = new Cleanup();
  try {
    await checkPortFree(host, port);
    const storage = await openStorageOrFail(server, { databaseUrl, schema: options.schema });
    cleanup.add(() => storage.close());
    const acceptedSecrets = options.acceptedSecrets ?? [];
    const source = acceptedSecrets.length > 0 ? 'LATCHKEY_SECRET (nor LATCHKEY_ACCEPTED_SECRET)' : 'LATCHKEY_SECRET';
    await verifySecretOrFail(server, storage, { value: [secret, ...acceptedSecrets], source });
    await server.bootstrap(storage, { dev: false, internalSignUp: options.openSignUp ?? false });
    await server.pinSecret(storage, secret);
    const dashboard =
      options.dashboard === false
        ? {}
        : await dashboardOption(server, storage, { secret, publicUrl: options.publicUrl });
    const service = server.createService({
      ...dashboard,
      storage,
      secret,
      ...(acceptedSecrets.length > 0 ? { acceptedSecrets } : {}),
      logger,
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.trustedProxyHeader ? { trustedProxyHeader: options.trustedProxyHeader } : {}),
      ...(options.trustedProxyHops ? { trustedProxyHops: options.trustedProxyHops } : {}),
      ...(options.refreshTokenCookie ? { refreshTokenCookie: { sameSite: options.refreshTokenCookie } } : {}),
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
      ...(options.maxProjectsPerOwner !== undefined ? { maxProjectsPerOwner: options.maxProjectsPerOwner } : {}),
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      allowDevelopmentProvider: options.allowDevelopmentProvider ?? false,
    });
    // Stops the outbox worker before the storage closes (closing the listener does it too, once it listens).
    cleanup.add(() => service.close());
    const listening = await listenOrFail(server, { service, port, host });
    cleanup.add(() => listening.close());
    const url = originFor(host, Number(new URL(listening.url).port));
    logger.info({ url, host }, 'listening');
    return {
      url,
      dashboardUrl: dashboard.dashboard ? `${options.publicUrl?.replace(/\/+$/, '') ?? url}/dashboard/` : null,
      async close() {
        logger.info('stopping: finishing requests in flight');
        await cleanup.run((error) => logger.error({ err: String(error) }, 'failed to stop cleanly'));
        logger.info('stopped');
      },
    };
  } catch (error) {
    await cleanup.run();
    throw error;
  }
}

/** `latchkey start`: runs until SIGINT/SIGTERM. */
export async function runStart(args: string[], context: CliContext): Promise<number> {
  const flags = parseCommandArgs('start', args, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    schema: { type: 'string' },
    'open-sign-up': { type: 'boolean' },
    'max-projects-per-owner': { type: 'string' },
    'allow-private-network': { type: 'boolean' },
    'allow-development-provider': { type: 'boolean' },
    'no-dashboard': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) {
    context.stdout.write(startUsage);
    return 0;
  }
  const port = parsePort('start', flags.port ?? context.env.PORT, 8102);
  const level = logLevel(context.env.LATCHKEY_LOG_LEVEL, 'info', 'start');
  const databaseUrl = context.env.DATABASE_URL;
  if (!databaseUrl) {
    throw new CliError(
      'DATABASE_URL is not set: `latchkey start` needs a PostgreSQL connection string (for local development use `latchkey dev`)',
    );
  }
  const secret = context.env.LATCHKEY_SECRET;
  if (!secret) {
    throw new CliError('LATCHKEY_SECRET is not set: `latchkey start` needs a master secret of 32 or more characters');
  }
  checkDatabaseUrl(databaseUrl);
  const smtpUrl = checkSmtpUrl(context.env.LATCHKEY_SMTP_URL);
  const smtpFrom = context.env.LATCHKEY_SMTP_FROM || undefined;
  const publicUrl = checkPublicUrl(context.env.LATCHKEY_PUBLIC_URL);
  const trustedProxyHeader = checkProxyHeader(context.env.LATCHKEY_TRUSTED_PROXY_HEADER);
  const trustedProxyHops = checkProxyHops(context.env.LATCHKEY_TRUSTED_PROXY_HOPS);
  const refreshTokenCookie = checkRefreshTokenCookie(context.env.LATCHKEY_REFRESH_TOKEN_COOKIE);
  const redisUrl = checkRedisUrl(context.env.REDIS_URL);
  // One value, whole: a secret may hold any character, commas and spaces included.
  const acceptedSecrets = context.env.LATCHKEY_ACCEPTED_SECRET ? [context.env.LATCHKEY_ACCEPTED_SECRET] : [];
  const host = flags.host ?? context.env.HOST ?? '0.0.0.0';
  const openSignUp = flags['open-sign-up'] || envSwitch(context.env, 'LATCHKEY_OPEN_SIGN_UP');
  const allowPrivateNetwork =
    flags['allow-private-network'] || envSwitch(context.env, 'LATCHKEY_ALLOW_PRIVATE_NETWORK');
  const allowDevelopmentProvider =
    flags['allow-development-provider'] || envSwitch(context.env, 'LATCHKEY_ALLOW_DEVELOPMENT_PROVIDER');
  const maxProjectsPerOwner = projectCap(
    flags['max-projects-per-owner'] ?? context.env.LATCHKEY_MAX_PROJECTS_PER_OWNER,
    flags['max-projects-per-owner'] !== undefined ? '--max-projects-per-owner' : 'LATCHKEY_MAX_PROJECTS_PER_OWNER',
  );
  const stop = waitForStop(context.signal);
  try {
    const running = await startProduction({
      databaseUrl,
      secret,
      port,
      host,
      logLevel: level,
      schema: flags.schema,
      smtpUrl,
      smtpFrom,
      publicUrl,
      trustedProxyHeader,
      trustedProxyHops,
      redisUrl,
      refreshTokenCookie,
      acceptedSecrets,
      openSignUp,
      maxProjectsPerOwner,
      allowPrivateNetwork,
      allowDevelopmentProvider,
      dashboard: !flags['no-dashboard'],
    });
    if (!stop.isStopped()) {
      const everywhere = host === '0.0.0.0' || host === '::' || host === '';
      const note = everywhere ? `on all interfaces, ${host || '0.0.0.0'}; ` : '';
      const limits = redisUrl ? `, limits counted in ${redactUrl(redisUrl)}` : '';
      context.stderr.write(
        `Latchkey is listening on ${running.url} (${note}database ${redactUrl(databaseUrl)}${limits})\n` +
          (running.dashboardUrl ? `Dashboard: ${running.dashboardUrl}\n` : '') +
          (smtpUrl ? '' : `${noSmtpWarning}\n`),
      );
    }
    await stop.stopped;
    await running.close();
    return 0;
  } finally {
    stop.dispose();
  }
}

/** Said once at start when the service has no SMTP server: the shared sender's mail cannot go anywhere. */
const noSmtpWarning =
  'latchkey: warning: LATCHKEY_SMTP_URL is not set, so mail of projects on the shared e-mail config (verification, password reset, sign-in codes, alerts) fails; set it, or give each project its own SMTP server';

/** A yes-or-no environment variable: true, 1, yes or on; false, 0, no, off or unset. Anything else is an error. */
function envSwitch(env: Record<string, string | undefined>, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || ['false', '0', 'no', 'off'].includes(value)) return false;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  throw new UsageError(`${name} must be true or false, not "${env[name]}"`, 'start');
}

/** The cap on projects per owner: a whole number, 0 or more, or undefined for the default. */
function projectCap(value: string | undefined, source: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d{1,9}$/.test(value.trim()))
    throw new UsageError(`${source} must be a whole number, not "${value}"`, 'start');
  return Number(value.trim());
}
