/**
 * What changes API key sets, for the routes and the operator alike: create a
 * set (its keys shown this once) and change one (its description, or revoke
 * it). Each is an action (`events/recorder.ts`): the change, its audit event
 * and the notice that drops the project's cached keys on every instance
 * commit together.
 */
import { type ActionContext, act, record } from '../events/recorder.js';
import type { ApiKeySetRow } from '../storage/schema.js';
import { type ApiKeyKind, apiKeyKinds, keyColumns, updateKeySet } from './api-key-store.js';
import { type CreateApiKeySetOptions, type CreatedApiKeySet, createKeySet } from './api-keys.js';

/**
 * Creates a key set in the context's project and returns its plaintext keys
 * (shown once); by default all three kinds, valid for 100 years.
 */
export function createApiKeySet(ctx: ActionContext, options: CreateApiKeySetOptions = {}): Promise<CreatedApiKeySet> {
  return act(ctx, async (tx) => {
    const created = await createKeySet(tx.db, ctx.projectId, { now: ctx.clock.now(), ...options });
    await record(tx, 'api_key.created', {
      userId: null,
      data: keySetFacts(created.id, (kind) => created[kind] !== undefined),
    });
    return created;
  });
}

/** What `updateApiKeySet` may change. */
export interface KeySetUpdate {
  description?: string;
  /** Revoke the set now; one revoked already keeps its first revocation time. */
  revoke?: boolean;
}

/**
 * Changes a key set of the context's project: the set as it is now, and
 * whether this call revoked it (its keys stop working on every instance at
 * once); null when the project has no such set.
 */
export function updateApiKeySet(
  ctx: ActionContext,
  keySetId: string,
  update: KeySetUpdate,
): Promise<{ set: ApiKeySetRow; revokedNow: boolean } | null> {
  const revokedAt = update.revoke ? new Date(ctx.clock.now()) : undefined;
  return act(ctx, async (tx) => {
    const set = await updateKeySet(tx.db, ctx.projectId, keySetId, {
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(revokedAt ? { revokedAt } : {}),
    });
    if (!set) return null;
    // Revoked by this call, not before it (the earlier revocation time is kept).
    const revokedNow = revokedAt !== undefined && set.manually_revoked_at?.getTime() === revokedAt.getTime();
    if (revokedNow) {
      await record(tx, 'api_key.revoked', {
        userId: null,
        data: keySetFacts(set.id, (kind) => set[keyColumns[kind].hash] !== null),
      });
    }
    // A new description is no event: no cache holds it, and the audit log keeps security changes only.
    return { set, revokedNow };
  });
}

/** What the audit log keeps of a key set: its id and the kinds of key it holds, never the keys. */
function keySetFacts(keySetId: string, has: (kind: ApiKeyKind) => boolean) {
  return { key_set_id: keySetId, kinds: apiKeyKinds.filter(has) };
}
