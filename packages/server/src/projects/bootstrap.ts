/** First-start set-up: the internal project, and in development a default project with keys. */
import { internalProjectId } from '@latchkey/protocol';
import { createApiKeySet } from '../api-keys/api-keys-actions.js';
import { type ActionContext, act } from '../events/recorder.js';
import type { Db } from '../storage/db.js';
import { lockBootstrap } from '../storage/locks.js';
import { findOldestProjectId } from './project-store.js';
import { findProject } from './projects.js';
import { createProject, updateProject } from './projects-actions.js';

/** The development project's id and plaintext keys. */
export interface DevProjectKeys {
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/** Options of `bootstrapDatabase`. */
export interface BootstrapOptions {
  dev: boolean;
  /**
   * Whether anyone may sign up to the internal project (and so become a
   * dashboard owner), written to its `sign_up_enabled` at every bootstrap
   * that names it. Default: open with `dev`; otherwise a new internal
   * project is closed and an existing one is left as it is.
   */
  internalSignUp?: boolean | undefined;
}

/**
 * Ensures the internal project exists, its sign-up as `internalSignUp` says.
 * With `dev`, on the first start (no project besides `internal`), also
 * creates "Default project" (magic links on) with a full key set and returns
 * its keys, which are never shown again (they are stored hashed); on later
 * starts it returns null.
 */
export function bootstrapDatabase(
  operator: ActionContext,
  schema: string,
  options: BootstrapOptions,
): Promise<DevProjectKeys | null> {
  const signUp = options.internalSignUp ?? (options.dev ? true : undefined);
  const internal = { ...operator, projectId: internalProjectId };
  return act(internal, async (tx) => {
    await lockBootstrap(tx.db, schema);
    const created = await createProject(
      tx,
      {
        id: internalProjectId,
        displayName: 'Latchkey internal',
        // As the original backend's internal project, its teams grant nothing by default: a
        // member holds only the permissions server code grants.
        config: {
          allow_localhost: true,
          sign_up_enabled: signUp ?? false,
          team_creator_default_permissions: [],
          team_member_default_permissions: [],
        },
      },
      null,
      { ifAbsent: true },
    );
    if (!created && signUp !== undefined) await setInternalSignUp(tx, signUp);
    if (!options.dev || (await findOldestProjectId(tx.db, internalProjectId))) return null;
    // Magic links, client team creation and GitHub and Google through the development stand-in
    // (shared keys) on, so that every sign-in method that needs no outside set-up, and teams, can be
    // tried at once, offline.
    const config = {
      magic_link_enabled: true,
      client_team_creation_enabled: true,
      oauth_providers: [
        { id: 'github' as const, enabled: true, type: 'shared' as const },
        { id: 'google' as const, enabled: true, type: 'shared' as const },
      ],
    };
    const project = await createProject(tx, { displayName: 'Default project', config }, null);
    return issueKeys({ ...tx, projectId: project!.id }, 'Development keys');
  });
}

/** Opens or closes sign-up to the internal project (`ctx`'s), recorded as the operator's change. */
async function setInternalSignUp(ctx: ActionContext, open: boolean): Promise<void> {
  const internal = await findProject(ctx.db, internalProjectId);
  if (!internal || internal.config.sign_up_enabled === open) return;
  await updateProject(ctx, { config: { sign_up_enabled: open } }, null);
}

/** The development project (the oldest project besides `internal`), or null. */
export function findDevProjectId(db: Db): Promise<string | null> {
  return findOldestProjectId(db, internalProjectId);
}

/** A new full key set for the context's project, as development keys. */
export async function issueKeys(ctx: ActionContext, description: string): Promise<DevProjectKeys> {
  const keys = await createApiKeySet(ctx, { description });
  return {
    projectId: ctx.projectId,
    publishableClientKey: keys.publishableClientKey!,
    secretServerKey: keys.secretServerKey!,
    superSecretAdminKey: keys.superSecretAdminKey!,
  };
}
