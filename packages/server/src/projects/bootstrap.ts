/** First-start set-up: the internal project, and in development a default project with keys. */
import { internalProjectId } from '@latchkey/protocol';
import { createKeySet } from '../api-keys/api-keys.js';
import { audit, operatorSource } from '../audit/audit-log.js';
import { type Db, inTransaction } from '../storage/db.js';
import { lockBootstrap } from '../storage/locks.js';
import { findOldestProjectId } from './project-store.js';
import { changeConfig, findProject, insertNewProject } from './projects.js';

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
export function bootstrapDatabase(db: Db, schema: string, options: BootstrapOptions): Promise<DevProjectKeys | null> {
  const signUp = options.internalSignUp ?? (options.dev ? true : undefined);
  return inTransaction(db, async (trx) => {
    await lockBootstrap(trx, schema);
    const created = await insertNewProject(
      trx,
      {
        id: internalProjectId,
        displayName: 'Latchkey internal',
        config: { allow_localhost: true, sign_up_enabled: signUp ?? false },
      },
      null,
      { ifAbsent: true },
    );
    if (!created && signUp !== undefined) await setInternalSignUp(trx, signUp);
    if (!options.dev || (await findOldestProjectId(trx, internalProjectId))) return null;
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
    const project = await insertNewProject(trx, { displayName: 'Default project', config }, null);
    return issueKeys(trx, project!.id, 'Development keys');
  });
}

/** Opens or closes sign-up to the internal project, recording a change as the operator's. */
async function setInternalSignUp(trx: Db, open: boolean): Promise<void> {
  const internal = await findProject(trx, internalProjectId);
  if (!internal || internal.config.sign_up_enabled === open) return;
  await changeConfig(trx, internalProjectId, { sign_up_enabled: open }, null);
  await audit(trx, operatorSource(internalProjectId), 'project.updated', {
    userId: null,
    data: { fields: ['config.sign_up_enabled'] },
  });
}

/** The development project (the oldest project besides `internal`), or null. */
export function findDevProjectId(db: Db): Promise<string | null> {
  return findOldestProjectId(db, internalProjectId);
}

/** A new full key set for `projectId`, as development keys. */
export async function issueKeys(db: Db, projectId: string, description: string): Promise<DevProjectKeys> {
  const keys = await createKeySet(db, projectId, { description });
  return {
    projectId,
    publishableClientKey: keys.publishableClientKey!,
    secretServerKey: keys.secretServerKey!,
    superSecretAdminKey: keys.superSecretAdminKey!,
  };
}
