/**
 * `ProjectOwnerApp`: a dashboard user, signed in on the `internal` project,
 * as the owner of projects (wire-protocol.md §7): lists the projects they
 * own, creates new ones, and administers each through an `AdminApp` built on
 * their session. An audience over the shared core: the internal project's
 * publishable key plus the owner's session, and the owned-projects module.
 */
import { internalProjectId } from '@latchkey/protocol';
import { AdminApp } from './admin-app.js';
import { type AudienceScope, mounted } from './internal/audience.js';
import { createCore } from './internal/core.js';
import { ownerSessionCredentials } from './internal/http/credentials.js';
import { requireOption } from './internal/require-options.js';
import type { Clock, FetchFunction, Timers } from './options.js';
import { type OwnedProjects, ownedProjects } from './projects/owned-projects.js';
import type { ProjectOwnerSession } from './server-types.js';

/**
 * Options of `new ProjectOwnerApp(...)`.
 *
 * @example
 * ```ts
 * const options: ProjectOwnerAppOptions = {
 *   baseUrl, publishableClientKey: internalPublishableKey, projectOwnerSession: await internalApp.getUser({ or: 'throw' }),
 * };
 * ```
 */
export interface ProjectOwnerAppOptions {
  baseUrl: string;
  /** The publishable client key of the `internal` project. */
  publishableClientKey: string;
  /** The signed-in user of the `internal` project (a `CurrentUser` of a `ClientApp` on it, say). */
  projectOwnerSession: ProjectOwnerSession;
  fetch?: FetchFunction;
  clock?: Clock;
  timers?: Timers;
}

/** What a `ProjectOwnerApp` can do. */
export interface ProjectOwnerAppModules extends OwnedProjects {
  /** An `AdminApp` for one of the owner's projects, acting with the owner's session. */
  adminApp(projectId: string): AdminApp;
}

/**
 * A project owner: their projects, and an `AdminApp` for each.
 *
 * @example
 * ```ts
 * const owner = new ProjectOwnerApp({ baseUrl, publishableClientKey, projectOwnerSession: user });
 * const shop = await owner.createProject({ displayName: 'Shop' });
 * await owner.adminApp(shop.id).createApiKeySet({ description: 'Web', hasPublishableClientKey: true });
 * ```
 */
export class ProjectOwnerApp extends mounted<ProjectOwnerAppModules>() {
  constructor(options: ProjectOwnerAppOptions) {
    super(mountProjectOwnerApp(options));
  }
}

function mountProjectOwnerApp(options: ProjectOwnerAppOptions): ProjectOwnerAppModules {
  requireOption('ProjectOwnerApp', options, 'baseUrl');
  requireOption('ProjectOwnerApp', options, 'publishableClientKey');
  const coreOptions = { ...options, projectId: internalProjectId };
  const core = createCore(coreOptions);
  const credentials = ownerSessionCredentials(options.publishableClientKey, options.projectOwnerSession);
  const scope: AudienceScope = {
    audience: 'ProjectOwnerApp',
    core,
    options: coreOptions,
    credentials,
    send: core.sender(credentials),
    publishableClientKey: options.publishableClientKey,
  };
  const { baseUrl, fetch, clock, timers, projectOwnerSession } = options;
  return {
    ...ownedProjects(scope),
    adminApp: (projectId) => new AdminApp({ projectId, baseUrl, fetch, clock, timers, projectOwnerSession }),
  };
}
