/**
 * The owned-projects module (wire-protocol.md §7.1): on the `internal`
 * project, a dashboard user lists the projects they own and creates new ones,
 * in the admin view.
 */
import type { AudienceScope, OwnerScope } from '../internal/audience.js';
import type { Query } from '../query.js';
import { type CreateProjectOptions, createOwnedProject, listOwnedProjects } from './admin-projects-api.js';
import { type AdminProject, adminProject } from './project-admin.js';

/**
 * What a project owner does with their projects.
 *
 * @example
 * ```ts
 * const projects = await owner.listOwnedProjects();
 * const shop = await owner.createProject({ displayName: 'Shop' });
 * ```
 */
export interface OwnedProjects {
  /** The projects the signed-in dashboard user owns, in the admin view. */
  listOwnedProjects(): Promise<AdminProject[]>;
  /** Creates a project the signed-in dashboard user owns (it has no key set yet). */
  createProject(options: CreateProjectOptions): Promise<AdminProject>;
}

/**
 * The projects the signed-in dashboard user owns, as a query of `ProjectOwnerApp`; creating one re-reads it.
 *
 * @example
 * ```ts
 * const projects = await owner.load(ownedProjectsQuery);
 * ```
 */
export const ownedProjectsQuery: Query<AdminProject[], OwnerScope> = {
  key: ['ownedProjects'],
  load: async ({ send }) => (await listOwnedProjects(send)).map(adminProject),
};

/** Mounts the owned-projects module on an audience of the `internal` project's signed-in user. */
export function ownedProjects(scope: AudienceScope): OwnedProjects {
  const { send } = scope;
  return {
    listOwnedProjects: async () => (await listOwnedProjects(send)).map(adminProject),
    createProject: async (options) => adminProject(await createOwnedProject(send, options)),
  };
}
