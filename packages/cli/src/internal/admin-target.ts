/**
 * What `latchkey keys` and `latchkey users` act on: a project of a database
 * the command opens itself (an embedded data directory, locked meanwhile, or
 * `DATABASE_URL`; through the `@latchkey/server` operations), or a project
 * of a running service over HTTP with its super secret admin key. Both answer in the wire's shapes, so the
 * commands print the same tables and the same JSON either way.
 */
import type { CliContext } from './context.js';
import { CliError, UsageError } from './errors.js';
import { type LocalStorage, openLocalStorage, rethrowKnown } from './local-storage.js';
import { createLogger, logLevel } from './logger.js';
import type { ServerModule } from './service.js';

/** A key set as list, read and revoke show it (each key's last four characters). */
export type KeySet = Awaited<ReturnType<ServerModule['listApiKeySets']>>[number];

/** A key set as its creation shows it: the keys in full, this once. */
export interface NewKeySet {
  id: string;
  description: string;
  created_at_millis: number;
  expires_at_millis: number;
  publishable_client_key?: string;
  secret_server_key?: string;
  super_secret_admin_key?: string;
}

/** A user in the server view. */
export type User = Awaited<ReturnType<ServerModule['listUsers']>>['items'][number];

interface NewKeySetInput {
  description: string;
  expiresAtMillis?: number;
  publishableClientKey: boolean;
  secretServerKey: boolean;
  superSecretAdminKey: boolean;
}

interface NewUserInput {
  email: string;
  password?: string;
  displayName?: string;
  verified: boolean;
}

export interface AdminTarget {
  projectId: string;
  listKeySets(): Promise<KeySet[]>;
  createKeySet(input: NewKeySetInput): Promise<NewKeySet>;
  /** Revokes the set (revoking again changes nothing) and returns it. */
  revokeKeySet(keySetId: string): Promise<KeySet>;
  listUsers(options: { limit: number; cursor?: string; query?: string }): Promise<{
    items: User[];
    nextCursor: string | null;
  }>;
  createUser(input: NewUserInput): Promise<User>;
  close(): Promise<void>;
}

/** The flags every admin command takes. */
export const targetFlags = {
  'data-dir': { type: 'string' },
  'api-url': { type: 'string' },
  project: { type: 'string' },
  'admin-key': { type: 'string' },
  schema: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const targetHelp = `Where (default: DATABASE_URL when set, else --data-dir .latchkey):
      --data-dir <dir>   the embedded database of \`latchkey dev\` (default
                         .latchkey); stop \`latchkey dev\` first, or use --api-url
      --schema <name>    with DATABASE_URL: the PostgreSQL schema (default public)
      --api-url <url>    a running service instead, e.g. http://127.0.0.1:8102
      --project <id>     the project (default with --data-dir: the development
                         project; required with DATABASE_URL and --api-url)
      --admin-key <key>  the project's super secret admin key (with --api-url;
                         or set LATCHKEY_ADMIN_KEY, which stays out of ps)
      --json             print JSON (the API's shapes) instead of a table
`;

/** Opens the target the flags name. */
export async function openTarget(
  command: string,
  flags: { 'data-dir'?: string; 'api-url'?: string; project?: string; 'admin-key'?: string; schema?: string },
  context: CliContext,
): Promise<AdminTarget> {
  const level = logLevel(context.env.LATCHKEY_LOG_LEVEL, 'warn', command);
  if (flags['api-url'] !== undefined) {
    if (flags['data-dir'] !== undefined) throw new UsageError('pass either --data-dir or --api-url, not both', command);
    if (flags.schema !== undefined) throw new UsageError('--schema goes with DATABASE_URL, not --api-url', command);
    const adminKey = flags['admin-key'] || context.env.LATCHKEY_ADMIN_KEY;
    if (!flags.project) throw new UsageError('--api-url needs --project <id>', command);
    if (!adminKey) throw new UsageError('--api-url needs --admin-key <key> (or LATCHKEY_ADMIN_KEY)', command);
    return httpTarget(command, flags['api-url'], flags.project, adminKey);
  }
  if (flags['admin-key'] !== undefined) throw new UsageError('--admin-key goes with --api-url', command);
  const logger = createLogger({ level, fallback: 'warn', to: 'stderr' });
  const local = await openLocalStorage(command, flags, context, logger).catch((error: unknown) => {
    const inUse = error instanceof CliError && /in use by another latchkey process/.test(error.message);
    throw inUse ? new CliError(`${error.message}; or reach it with --api-url`) : error;
  });
  return storageTarget(local, flags.project);
}

async function storageTarget(local: LocalStorage, project: string | undefined): Promise<AdminTarget> {
  const { server, storage, close } = local;
  const projectId = project ?? (local.embedded ? await server.findDevProject(storage) : null);
  if (!projectId) {
    await close();
    throw new CliError(
      local.embedded
        ? `${local.where} has no development project: pass --project <id>`
        : 'with DATABASE_URL, pass --project <id> (`latchkey projects list` shows them)',
    );
  }
  const findSet = async (keySetId: string) =>
    (await server.listApiKeySets(storage, projectId)).find((set) => set.id === keySetId.toLowerCase());
  return {
    projectId,
    listKeySets: () => server.listApiKeySets(storage, projectId),
    async createKeySet(input) {
      const created = await server.createApiKeySet(storage, projectId, {
        description: input.description,
        ...(input.expiresAtMillis !== undefined ? { expiresAtMillis: input.expiresAtMillis } : {}),
        hasPublishableClientKey: input.publishableClientKey,
        hasSecretServerKey: input.secretServerKey,
        hasSuperSecretAdminKey: input.superSecretAdminKey,
      });
      return server.apiKeySetFirstView(created);
    },
    async revokeKeySet(keySetId) {
      await server.revokeApiKeySet(storage, projectId, keySetId);
      const set = await findSet(keySetId);
      if (!set) throw new CliError(`project ${projectId} has no key set ${keySetId}`);
      return set;
    },
    async listUsers(options) {
      return server.listUsers(storage, projectId, {
        limit: options.limit,
        cursor: options.cursor ?? null,
        query: options.query ?? null,
      });
    },
    createUser: (input) => server.createUser(storage, projectId, userBody(input)).catch(rethrowKnown),
    close,
  };
}

function userBody(input: NewUserInput) {
  return {
    primary_email: input.email,
    primary_email_auth_enabled: true,
    primary_email_verified: input.verified,
    ...(input.password !== undefined ? { password: input.password } : {}),
    ...(input.displayName !== undefined ? { display_name: input.displayName } : {}),
  };
}

/** Sends admin requests to a running service: the answer's JSON, or a `CliError` naming the known error. */
export type AdminSend = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * The project and admin key of `--api-url`, `--project` and `--admin-key`
 * (or LATCHKEY_ADMIN_KEY), for commands that only act over HTTP.
 */
export function httpAdmin(
  command: string,
  flags: { 'api-url'?: string; project?: string; 'admin-key'?: string },
  context: CliContext,
): { projectId: string; send: AdminSend } {
  const adminKey = flags['admin-key'] || context.env.LATCHKEY_ADMIN_KEY;
  if (flags['api-url'] === undefined) throw new UsageError('needs --api-url <url> of a running service', command);
  if (!flags.project) throw new UsageError('--api-url needs --project <id>', command);
  if (!adminKey) throw new UsageError('--api-url needs --admin-key <key> (or LATCHKEY_ADMIN_KEY)', command);
  return { projectId: flags.project, send: httpSend(command, flags['api-url'], flags.project, adminKey) };
}

function httpSend(command: string, apiUrl: string, projectId: string, adminKey: string): AdminSend {
  let base: string;
  try {
    const url = new URL(apiUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    base = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
  } catch {
    throw new UsageError(
      `invalid --api-url "${apiUrl}": expected an http(s) URL such as http://127.0.0.1:8102`,
      command,
    );
  }
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          'x-stack-project-id': projectId,
          'x-stack-access-type': 'admin',
          'x-stack-super-secret-admin-key': adminKey,
          'x-stack-client-version': 'latchkey-cli',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const reason =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new CliError(`cannot reach ${base}: ${reason}`);
    }
    const text = await response.text();
    const code = response.headers.get('x-stack-known-error');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (code) {
      const message = (parsed as { error?: unknown } | undefined)?.error;
      throw new CliError(`${code}${typeof message === 'string' ? `: ${message}` : ''}`);
    }
    if (!response.ok || parsed === undefined) {
      throw new CliError(`${base}${path} answered ${response.status}${parsed === undefined ? ' (not JSON)' : ''}`);
    }
    return parsed as T;
  };
}

function httpTarget(command: string, apiUrl: string, projectId: string, adminKey: string): AdminTarget {
  const send = httpSend(command, apiUrl, projectId, adminKey);
  return {
    projectId,
    listKeySets: async () => (await send<{ items: KeySet[] }>('GET', '/internal/api-keys')).items,
    createKeySet: (input) =>
      send<NewKeySet>('POST', '/internal/api-keys', {
        description: input.description,
        ...(input.expiresAtMillis !== undefined ? { expires_at_millis: input.expiresAtMillis } : {}),
        has_publishable_client_key: input.publishableClientKey,
        has_secret_server_key: input.secretServerKey,
        has_super_secret_admin_key: input.superSecretAdminKey,
      }),
    revokeKeySet: (keySetId) =>
      send<KeySet>('PATCH', `/internal/api-keys/${encodeURIComponent(keySetId)}`, { revoked: true }),
    async listUsers(options) {
      const query = new URLSearchParams({ limit: String(options.limit) });
      if (options.cursor) query.set('cursor', options.cursor);
      if (options.query) query.set('query', options.query);
      const page = await send<{ items: User[]; pagination?: { next_cursor?: string | null } }>(
        'GET',
        `/users?${query}`,
      );
      return { items: page.items, nextCursor: page.pagination?.next_cursor ?? null };
    },
    createUser: (input) => send<User>('POST', '/users', userBody(input)),
    close: async () => {},
  };
}
