/**
 * `ServerApp`: the SDK for your backend, acting with the project's secret
 * server key (spec §6). An audience over the shared core: the key as
 * credentials, plus the modules it mounts (users, with their sessions).
 * Server-only: it refuses to be built in a browser.
 */
import { headers } from '@latchkey/protocol';
import { type ServerEmailFlows, serverEmailFlows } from './auth/server-email-flows.js';
import { type AudienceScope, createAudienceScope, queryAccess, refuseSecretKeyInBrowser } from './internal/audience.js';
import { createCore } from './internal/core.js';
import { projectKeyCredentials } from './internal/http/credentials.js';
import { mounted } from './internal/mounted.js';
import { requireOption } from './internal/require-options.js';
import type { Clock, FetchFunction, Timers } from './options.js';
import type { QueryAccess } from './query.js';
import { type ServerTeams, serverTeams } from './teams/server-team.js';
import { type ServerUsers, serverUsers } from './users/server-users.js';

/**
 * Options of `new ServerApp(...)`.
 *
 * @example
 * ```ts
 * const options: ServerAppOptions = {
 *   projectId: process.env.LATCHKEY_PROJECT_ID!, baseUrl: 'https://auth.example.com',
 *   secretServerKey: process.env.LATCHKEY_SECRET_SERVER_KEY!, publishableClientKey: process.env.LATCHKEY_PUBLISHABLE_KEY,
 * };
 * ```
 */
export interface ServerAppOptions {
  projectId: string;
  /** The service's origin, e.g. `https://auth.example.com` (a base ending in `/api/v1` is accepted too). */
  baseUrl: string;
  /** The project's secret server key (`ssk_...`). Keep it out of browsers and out of source control. */
  secretServerKey: string;
  /** Needed by `getUser({ tokenStore })` only: it refreshes the sessions of incoming requests with it. */
  publishableClientKey?: string;
  fetch?: FetchFunction;
  /** Time source for token expiry; tests move it. */
  clock?: Clock;
  /** Timer functions for retries. */
  timers?: Timers;
}

/**
 * What a `ServerApp` can do: every method comes from a module it mounts. Its
 * data methods run the queries of server access (`serverUsersQuery`, ...).
 */
export interface ServerAppModules
  extends ServerUsers,
    ServerEmailFlows,
    ServerTeams,
    QueryAccess<AudienceScope<'server'>> {
  readonly projectId: string;
}

/**
 * The server SDK: users (list, search, create, update, delete), their
 * sessions (create, list, revoke) and e-mail addresses, the user of an
 * incoming request, and the password-reset and magic-link mails; and their
 * data as queries, cached and kept current after its own writes.
 *
 * @example
 * ```ts
 * import { ServerApp } from '@latchkey/js/server';
 *
 * const serverApp = new ServerApp({ projectId, baseUrl, secretServerKey, publishableClientKey });
 * const visitor = await serverApp.getUser({ tokenStore: request }); // null when signed out
 * const ada = await serverApp.createUser({ primaryEmail: 'ada@example.com', password: 'correct-horse-1' });
 * await ada.update({ serverMetadata: { plan: 'pro' } });
 * const stop = serverApp.subscribe(serverUserQuery(ada.id), () => console.log(serverApp.getSnapshot(serverUserQuery(ada.id))));
 * ```
 */
export class ServerApp extends mounted<ServerAppModules>() {
  constructor(options: ServerAppOptions) {
    super(mountServerApp(options));
  }
}

function mountServerApp(options: ServerAppOptions): ServerAppModules {
  requireOption('ServerApp', options, 'projectId');
  requireOption('ServerApp', options, 'baseUrl');
  requireOption('ServerApp', options, 'secretServerKey');
  refuseSecretKeyInBrowser('ServerApp', 'secret server key');
  const core = createCore(options);
  const credentials = projectKeyCredentials('server', { [headers.secretServerKey]: options.secretServerKey });
  const scope = createAudienceScope({
    audience: 'ServerApp',
    access: 'server',
    core,
    options,
    credentials,
    publishableClientKey: options.publishableClientKey,
  });
  return {
    projectId: options.projectId,
    ...serverUsers(scope),
    ...serverEmailFlows(scope),
    ...serverTeams(scope),
    ...queryAccess(scope),
  };
}
