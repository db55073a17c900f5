import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { originFor, parseCommandArgs, parsePort } from '../internal/args.js';
import { Cleanup } from '../internal/cleanup.js';
import { type CliContext, waitForStop } from '../internal/context.js';
import { dashboardOption } from '../internal/dashboard.js';
import {
  type DevOwner,
  type DevProject,
  devProjectPath,
  ensureDataDir,
  loadOrCreateSecret,
  lockDataDir,
  readDevProject,
  type SavedDevProject,
  writeDevProject,
} from '../internal/data-dir.js';
import { CliError } from '../internal/errors.js';
import { type DevInfo, formatDevInfo } from '../internal/format.js';
import { createLogger, logLevel } from '../internal/logger.js';
import { waitUntilServing } from '../internal/ready.js';
import {
  checkPortFree,
  checkSecretStrength,
  listenOrFail,
  loadServer,
  openStorageOrFail,
  type ServerModule,
  type Storage,
  verifySecretOrFail,
} from '../internal/service.js';
import { checkSmtpUrl } from '../internal/smtp-url.js';

const devUsage = `Usage: latchkey dev [options]

Runs the Latchkey service for local development on an embedded database
(PGlite in the data directory), with a development project, its keys, and
its owner: a user of the internal project (e-mail and generated password)
whose access token is an admin access token for the project.

Options:
  -p, --port <n>        port to listen on (default 8102; 0 picks a free port)
      --host <host>     interface to listen on (default 127.0.0.1)
      --data-dir <dir>  database, master secret and dev keys (default .latchkey)
      --json            print { apiUrl, projectId, publishableClientKey,
                        secretServerKey, superSecretAdminKey, dataDir,
                        ownerEmail, ownerPassword, internalPublishableClientKey,
                        mailboxUrl } as one JSON line on stdout once the
                        service answers
  -h, --help            show this help

Environment:
  LATCHKEY_SECRET       master secret (32+ characters); without it one is
                        generated once and kept in <data-dir>/secret
  LATCHKEY_LOG_LEVEL    level of the service log on stderr: fatal, error,
                        warn (default), info (every request), debug, trace
                        or silent
  LATCHKEY_SMTP_URL     SMTP server for projects with the shared e-mail
                        config, e.g. smtp://user:pass@host:587 (smtps:// for
                        implicit TLS); without it their mail lands in the dev
                        mailbox at <apiUrl>/mailbox
  LATCHKEY_SMTP_FROM    sender of that mail, "Name <address>" or an address
  LATCHKEY_ALLOWED_HOSTS
                        host names answered besides loopback ones, comma-
                        separated (a tunnel to this machine); any other name
                        is refused, so that no web page can reach the dev
                        mailbox by DNS rebinding
`;

export interface DevOptions {
  /** Default 8102; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default `.latchkey` (resolved against the current directory). */
  dataDir?: string;
  /** Master secret; default: generated once and kept in `<dataDir>/secret`. */
  secret?: string;
  /** pino level of the service's log on stderr; default `warn`. */
  logLevel?: string;
  /** Where notices go (e.g. re-issued keys); default stderr. */
  notify?: (message: string) => void;
  /** SMTP server for shared mail (`LATCHKEY_SMTP_URL`); default none: it lands in the dev mailbox. */
  smtpUrl?: string | undefined;
  /** Sender of shared mail (`LATCHKEY_SMTP_FROM`). */
  smtpFrom?: string | undefined;
  /** Host names answered besides loopback ones (`LATCHKEY_ALLOWED_HOSTS`, comma-separated); default none. */
  allowedHosts?: readonly string[] | undefined;
}

/** A running development service. */
export interface DevService {
  info: DevInfo;
  close(): Promise<void>;
}

/**
 * Starts the service on the embedded database in `dataDir`, creating the dev
 * project on the first start, and resolves once it answers over HTTP.
 *
 * @example
 * const dev = await startDev({ port: 0, dataDir: '.latchkey' });
 * console.log(dev.info.apiUrl, dev.info.publishableClientKey);
 * await dev.close();
 */
export async function startDev(options: DevOptions = {}): Promise<DevService> {
  const dataDir = resolve(options.dataDir ?? '.latchkey');
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8102;
  const notify = options.notify ?? ((message: string) => process.stderr.write(`latchkey: ${message}\n`));
  const logger = createLogger({ level: options.logLevel, fallback: 'warn', to: 'stderr' });
  // Where start-up time goes, at debug level: ms since the process started (bench/cold-start.mjs reads them).
  const step = (name: string) => logger.debug({ step: name, ms: Math.round(performance.now()) }, 'start step');
  await ensureDataDir(dataDir);
  const cleanup = new Cleanup();
  // Until the listener holds it, nothing keeps the event loop alive while starting; each time it runs dry
  // Node waits for every V8 background task, such as optimising PGlite's WebAssembly (0.3-0.7 s in all).
  const awake = setInterval(() => {}, 2 ** 30);
  try {
    // The directory first: when another `latchkey dev` holds it, its port is busy too, and the port is not the fix.
    const lock = await lockDataDir(dataDir);
    cleanup.add(() => lock.release());
    await checkPortFree(host, port);
    const [secret, server] = await Promise.all([loadOrCreateSecret(dataDir, options.secret), loadServer()]);
    step('modules loaded');
    checkSecretStrength(server, secret, options.secret ? 'LATCHKEY_SECRET' : `${dataDir}/secret`);
    const storage = await openStorageOrFail(server, { dataDir });
    cleanup.add(() => storage.close());
    step('database open');
    const source = options.secret ? 'LATCHKEY_SECRET' : `the secret in ${join(dataDir, 'secret')}`;
    await verifySecretOrFail(server, storage, { value: secret, source });
    const saved = await devProject(dataDir, storage, await server.bootstrap(storage, { dev: true }), server, notify);
    await server.pinSecret(storage, secret);
    step('project ready');
    const project = await devOwner(dataDir, storage, saved, server);
    step('owner ready');
    const dashboard = await dashboardOption(server, storage, {
      secret,
      devOwner: { email: project.ownerEmail, password: project.ownerPassword },
    });
    const service = server.createService({
      storage,
      secret,
      logger,
      devMailbox: true,
      // A laptop: loopback SMTP servers and issuers, the development provider and localhost redirects all work.
      development: true,
      ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
      ...(options.smtpFrom ? { smtpFrom: options.smtpFrom } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...dashboard,
    });
    // Stops the outbox worker before the storage closes (closing the listener does it too, once it listens).
    cleanup.add(() => service.close());
    const listening = await listenOrFail(server, { service, port, host });
    cleanup.add(() => listening.close());
    step('listening');
    const apiUrl = originFor(host, Number(new URL(listening.url).port));
    await waitUntilServing(apiUrl, project);
    step('serving');
    logger.info({ url: apiUrl, dataDir }, 'listening');
    return {
      info: {
        apiUrl,
        ...project,
        dataDir,
        mailboxUrl: `${apiUrl}/mailbox`,
        ...(dashboard.dashboard ? { dashboardUrl: `${apiUrl}/dashboard/` } : {}),
      },
      async close() {
        await cleanup.run((error) => logger.error({ err: String(error) }, 'failed to stop cleanly'));
        logger.info('stopped');
      },
    };
  } catch (error) {
    await cleanup.run();
    throw error;
  } finally {
    clearInterval(awake);
  }
}

/**
 * The dev project's keys: just created by bootstrap (then saved), or saved by an
 * earlier start. When the saved file is gone, the project gets a new key set.
 */
async function devProject(
  dataDir: string,
  storage: Storage,
  created: DevProject | null,
  server: ServerModule,
  notify: (message: string) => void,
): Promise<SavedDevProject> {
  if (!created) {
    const saved = await readDevProject(dataDir);
    if (saved) return saved;
  }
  let project: DevProject;
  if (created) {
    const { projectId, publishableClientKey, secretServerKey, superSecretAdminKey } = created;
    project = { projectId, publishableClientKey, secretServerKey, superSecretAdminKey };
  } else {
    project = await reissueDevKeys(storage, server);
    notify(`${devProjectPath(dataDir)} was missing: issued a new development key set`);
  }
  await writeDevProject(dataDir, project);
  return project;
}

/**
 * The dev project's owner, as saved, or created on the first start (and when
 * the saved file lacks one): a user of the internal project with a generated
 * password, owner of the dev project, and a publishable key of the internal
 * project to sign in with.
 */
async function devOwner(
  dataDir: string,
  storage: Storage,
  saved: SavedDevProject,
  server: ServerModule,
): Promise<DevProject & DevOwner> {
  if (saved.ownerEmail && saved.ownerPassword && saved.internalPublishableClientKey) {
    return saved as DevProject & DevOwner;
  }
  const internal = await server.createApiKeySet(storage, 'internal', {
    description: 'Development: dashboard sign-in',
    hasPublishableClientKey: true,
    hasSecretServerKey: false,
    hasSuperSecretAdminKey: false,
  });
  const ownerPassword = randomBytes(18).toString('base64url');
  const account = { primary_email_auth_enabled: true, primary_email_verified: true, password: ownerPassword };
  let ownerEmail = 'owner@latchkey.localhost';
  const user = await server
    .createUser(storage, 'internal', { ...account, primary_email: ownerEmail })
    .catch(async (error) => {
      // Taken by an owner whose saved file was deleted: a new owner with a new address.
      if ((error as { code?: unknown }).code !== 'USER_EMAIL_ALREADY_EXISTS') throw error;
      ownerEmail = `owner-${randomBytes(4).toString('hex')}@latchkey.localhost`;
      return server.createUser(storage, 'internal', { ...account, primary_email: ownerEmail });
    });
  await server.addProjectOwner(storage, saved.projectId, user.id);
  const project = { ...saved, ownerEmail, ownerPassword, internalPublishableClientKey: internal.publishableClientKey! };
  await writeDevProject(dataDir, project);
  return project;
}

/** A new key set for the development project (the one bootstrap created). */
async function reissueDevKeys(storage: Storage, server: ServerModule): Promise<DevProject> {
  if (!(await server.findDevProject(storage))) {
    throw new CliError('the database has no development project; delete the data directory to start afresh');
  }
  const { projectId, publishableClientKey, secretServerKey, superSecretAdminKey } = await server.issueDevKeys(storage);
  return { projectId, publishableClientKey, secretServerKey, superSecretAdminKey };
}

/** `latchkey dev`: runs until SIGINT/SIGTERM. */
export async function runDev(args: string[], context: CliContext): Promise<number> {
  const flags = parseCommandArgs('dev', args, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) {
    context.stdout.write(devUsage);
    return 0;
  }
  const level = logLevel(context.env.LATCHKEY_LOG_LEVEL, 'warn', 'dev');
  const stop = waitForStop(context.signal);
  try {
    const dev = await startDev({
      port: parsePort('dev', flags.port, 8102),
      host: flags.host ?? '127.0.0.1',
      dataDir: resolve(context.cwd, flags['data-dir'] ?? '.latchkey'),
      secret: context.env.LATCHKEY_SECRET || undefined,
      logLevel: level,
      notify: (message) => context.stderr.write(`latchkey: ${message}\n`),
      smtpUrl: checkSmtpUrl(context.env.LATCHKEY_SMTP_URL),
      smtpFrom: context.env.LATCHKEY_SMTP_FROM || undefined,
      allowedHosts: hostList(context.env.LATCHKEY_ALLOWED_HOSTS),
    });
    const { apiUrl, projectId, publishableClientKey, secretServerKey, superSecretAdminKey, dataDir } = dev.info;
    const { ownerEmail, ownerPassword, internalPublishableClientKey, mailboxUrl, dashboardUrl } = dev.info;
    const json = {
      apiUrl,
      projectId,
      publishableClientKey,
      secretServerKey,
      superSecretAdminKey,
      dataDir,
      ownerEmail,
      ownerPassword,
      internalPublishableClientKey,
      mailboxUrl,
      ...(dashboardUrl ? { dashboardUrl } : {}),
    };
    // Stopped while starting: stop without announcing a service that is going away.
    if (!stop.isStopped()) context.stdout.write(flags.json ? `${JSON.stringify(json)}\n` : formatDevInfo(dev.info));
    await stop.stopped;
    if (!flags.json) context.stderr.write('Stopping...\n');
    await dev.close();
    return 0;
  } finally {
    stop.dispose();
  }
}

/** `LATCHKEY_ALLOWED_HOSTS`: comma-separated host names, blanks dropped; undefined when none. */
function hostList(value: string | undefined): string[] | undefined {
  const hosts = (value ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  return hosts.length > 0 ? hosts : undefined;
}
