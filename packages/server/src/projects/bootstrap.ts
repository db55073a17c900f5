/** First-start set-up: the internal project, and in development a default project with keys. */
import { internalProjectId } from '@latchkey/protocol';
import { sql } from 'kysely';
import type { Storage } from '../storage/open-storage.js';
import { json } from '../storage/schema.js';
import { createApiKeySet } from '../api-keys/api-keys.js';
import { defaultProjectConfig } from './project-config.js';
import { createProject } from './project-store.js';

/** The development project's id and plaintext keys. */
export interface DevProjectKeys {
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/** Advisory-lock key (with the schema) serializing bootstraps of one database. */
const lockNamespace = 0x4c4b4253; // "LKBS"

/**
 * Ensures the internal project exists. With `dev: true`, on the first start
 * (no project besides `internal`), also creates "Default project" with a full
 * key set and returns its keys, which are never shown again (they are stored
 * hashed); on later starts it returns null.
 *
 * @example
 * const created = await bootstrap(storage, { dev: true });
 * if (created) console.log(created.projectId, created.publishableClientKey);
 */
export async function bootstrap(storage: Storage, options: { dev: boolean }): Promise<DevProjectKeys | null> {
  return storage.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${lockNamespace}, hashtext(${storage.schema}))`.execute(trx);
    const now = new Date();
    await trx
      .insertInto('projects')
      .values({
        id: internalProjectId,
        display_name: 'Latchkey internal',
        description: null,
        created_at: now,
        is_production_mode: false,
        config: json({
          ...defaultProjectConfig,
          sign_up_enabled: true,
          credential_enabled: true,
          allow_localhost: true,
        }),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if (!options.dev) return null;
    const other = await trx.selectFrom('projects').select('id').where('id', '!=', internalProjectId).executeTakeFirst();
    if (other) return null;
    const inTransaction = { db: trx };
    const project = await createProject(inTransaction, {
      displayName: 'Default project',
      config: {
        allow_localhost: true,
        sign_up_enabled: true,
        credential_enabled: true,
        client_user_deletion_enabled: false,
      },
    });
    const keys = await createApiKeySet(inTransaction, project.id, { description: 'Development keys' });
    return {
      projectId: project.id,
      publishableClientKey: keys.publishableClientKey!,
      secretServerKey: keys.secretServerKey!,
      superSecretAdminKey: keys.superSecretAdminKey!,
    };
  });
}
