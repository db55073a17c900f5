/** First-start set-up: the internal project, and in development a default project with keys. */
import { internalProjectId } from '@latchkey/protocol';
import { createKeySet } from '../api-keys/api-keys.js';
import { type Db, inTransaction } from '../storage/db.js';
import { lockBootstrap } from '../storage/locks.js';
import { findOldestProjectId } from './project-store.js';
import { insertNewProject } from './projects.js';

/** The development project's id and plaintext keys. */
export interface DevProjectKeys {
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/**
 * Ensures the internal project exists. With `dev`, on the first start (no
 * project besides `internal`), also creates "Default project" (magic links
 * on) with a full key set and returns its keys, which are never shown again (they are stored
 * hashed); on later starts it returns null.
 */
export function bootstrapDatabase(db: Db, schema: string, options: { dev: boolean }): Promise<DevProjectKeys | null> {
  return inTransaction(db, async (trx) => {
    await lockBootstrap(trx, schema);
    await insertNewProject(
      trx,
      { id: internalProjectId, displayName: 'Latchkey internal', config: { allow_localhost: true } },
      null,
      { ifAbsent: true },
    );
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
