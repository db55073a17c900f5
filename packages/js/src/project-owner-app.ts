/**
 * `ProjectOwnerApp`: a dashboard user, signed in on the `internal` project,
 * as the owner of projects (wire-protocol.md §7): lists the projects they
 * own, creates new ones, and administers each through an `AdminApp` built on
 * their session. An audience over the shared core: the internal project's
 * publishable key plus the owner's session, and the owned-projects module.
 */
import { internalProjectId } from '@latchkey/protocol';
import { AdminApp } from './admin-app.js';
import { createAudienceScope, type OwnerScope, queryAccess } from './internal/audience.js';
import { createCore } from './internal/core.js';
import { ownerSessionCredentials } from './internal/http/credentials.js';
import { mounted } from './internal/mounted.js';
import { requireOption } from './internal/require-options.js';
import type { Clock, FetchFunction, Timers } from './options.js';
import { type OwnedProjects, ownedProjects } from './projects/owned-projects.js';
import type { QueryAccess } from './query.js';
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

/** What a `ProjectOwnerApp` can do; its data methods run the owner's queries (`ownedProjectsQuery`). */
export interface ProjectOwnerAppModules extends OwnedProjects, QueryAccess<OwnerScope> {
  /** An `AdminApp` for one of the owner's projects, acting with the owner's session (the same app, and cache, each time). */
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
  const scope = createAudienceScope({
    audience: 'ProjectOwnerApp',
    access: 'owner',
    core,
    options: coreOptions,
    credentials,
    publishableClientKey: options.publishableClientKey,
  });
  const { baseUrl, fetch, clock, timers, projectOwnerSession } = options;
  const adminApps = new Map<string, AdminApp>();
  return {
    ...ownedProjects(scope),
    ...queryAccess(scope),
    adminApp(projectId) {
      const app =
        adminApps.get(projectId) ?? new AdminApp({ projectId, baseUrl, fetch, clock, timers, projectOwnerSession });
      adminApps.set(projectId, app);
      return app;
    },
  };
}
