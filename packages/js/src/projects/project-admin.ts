/**
 * The project module of `AdminApp`: read, update and delete the project it
 * administers, each answer with the production-mode problems of spec §5
 * (advice: the service takes production mode as asked, as the reference does).
 */
import { type ProductionModeError, productionModeErrors } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import { apiUrl } from '../internal/http/request.js';
import type { Query } from '../query.js';
import type { AdminProjectData } from './admin-project-decoder.js';
import { deleteProject, fetchAdminProject, type ProjectUpdate, updateProject } from './admin-projects-api.js';

/**
 * A project as its administrators see it, with what keeps it out of
 * production mode.
 *
 * @example
 * ```ts
 * const project = await adminApp.getProject();
 * for (const problem of project.productionModeErrors) console.warn(problem.message);
 * ```
 */
export interface AdminProject extends AdminProjectData {
  /** The production-mode checks of spec §5 that fail (advice; the service does not refuse production mode); empty when all pass. */
  productionModeErrors: ProductionModeError[];
}

/**
 * What an administrator does with the project.
 *
 * @example
 * ```ts
 * await adminApp.updateProject({ config: { allowLocalhost: false } });
 * ```
 */
export interface ProjectAdministration {
  /** The project in the admin view: every setting, the user count, production mode. */
  getProject(): Promise<AdminProject>;
  /** Changes names, production mode or config (lists replace); resolves with the project afterwards. */
  updateProject(update: ProjectUpdate): Promise<AdminProject>;
  /** Deletes the project and everything in it. */
  deleteProject(): Promise<void>;
  /**
   * The callback URL to register at an OAuth provider for `providerId`
   * (`<service>/api/v1/auth/oauth/callback/<id>`), on the base URL this app
   * talks to; a service behind a proxy that rewrites the host sends its
   * `publicUrl` instead.
   */
  oauthCallbackUrl(providerId: string): string;
}

/** The project `data` with its production-mode problems. */
export function adminProject(data: AdminProjectData): AdminProject {
  const { allowLocalhost, domains, oauthProviders } = data.config;
  const checked = { allow_localhost: allowLocalhost, domains, oauth_providers: oauthProviders };
  return { ...data, productionModeErrors: productionModeErrors(checked, data.id) };
}

/**
 * The project in the admin view, as a query of `AdminApp`; `updateProject` re-reads it.
 *
 * @example
 * ```ts
 * const project = await adminApp.load(adminProjectQuery);
 * ```
 */
export const adminProjectQuery: Query<AdminProject, AdminScope> = {
  key: ['project'],
  load: async ({ send }) => adminProject(await fetchAdminProject(send)),
};

/** Mounts the project module on an audience with admin access. */
export function projectAdministration(scope: AudienceScope): ProjectAdministration {
  const { send } = scope;
  return {
    getProject: async () => adminProject(await fetchAdminProject(send)),
    updateProject: async (update) => adminProject(await updateProject(send, update)),
    deleteProject: () => deleteProject(send),
    oauthCallbackUrl: (providerId) =>
      apiUrl(scope.options.baseUrl, `/auth/oauth/callback/${encodeURIComponent(providerId)}`),
  };
}
