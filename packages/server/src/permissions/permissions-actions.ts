/**
 * What changes team permissions, for the routes: grant and revoke a member's
 * permission, and create, change and delete a project's definitions. Each is
 * an action (`events/recorder.ts`). Definition writes of a project run one
 * after another (a transaction-scoped lock), so two changes cannot together
 * close a cycle; renaming or deleting a definition renames or removes it in
 * the project's default lists in the same transaction, and its event tells
 * every instance that the project's config changed.
 */
import { KnownError } from '@latchkey/protocol';
import { type ActionContext, act, record } from '../events/recorder.js';
import { projectConfigSchema } from '../projects/project-config.js';
import { changeProjectConfig } from '../projects/project-store.js';
import type { Db } from '../storage/db.js';
import {
  changeDefinition,
  deleteDefinition as deleteDefinitionRow,
  findDefinition,
  insertDefinition,
  lockDefinitions,
  reachesPermission,
  setContainedPermissions,
} from './definition-store.js';
import {
  grantPermissions,
  isSystemPermissionId,
  type MemberRef,
  revokePermission as revokeGrant,
} from './permission-store.js';

const schemaError = (message: string) => new KnownError('SCHEMA_ERROR', { message });

/** Grants a member a permission; one already held directly is neither granted nor recorded again. */
export function grantPermission(ctx: ActionContext, member: MemberRef, permissionId: string): Promise<void> {
  return act(ctx, async (tx) => {
    if ((await grantPermissions(tx.db, member, [permissionId])).length === 0) return;
    await record(tx, 'team_permission.granted', {
      userId: member.userId,
      data: { team_id: member.teamId, permission_id: permissionId },
    });
  });
}

/** Revokes a permission granted directly; false when the member did not hold it directly. */
export function revokePermission(ctx: ActionContext, member: MemberRef, permissionId: string): Promise<boolean> {
  return act(ctx, async (tx) => {
    const gone = await revokeGrant(tx.db, member, permissionId);
    if (gone) {
      await record(tx, 'team_permission.revoked', {
        userId: member.userId,
        data: { team_id: member.teamId, permission_id: permissionId },
      });
    }
    return gone;
  });
}

/** A definition to create: its id, description and the permissions it contains directly. */
export interface NewDefinition {
  id: string;
  description: string | null;
  contained: readonly string[];
}

/**
 * Defines a permission: SCHEMA_ERROR for a taken id or one containing
 * itself, CONTAINED_PERMISSION_NOT_FOUND for a contained id not defined.
 */
export function createDefinition(ctx: ActionContext, definition: NewDefinition): Promise<void> {
  const { projectId } = ctx;
  const contained = [...new Set(definition.contained)];
  return act(ctx, async (tx) => {
    await lockDefinitions(tx.db, projectId);
    if (await findDefinition(tx.db, projectId, definition.id)) {
      throw schemaError(`id: the permission "${definition.id}" exists`);
    }
    if (contained.includes(definition.id)) {
      throw schemaError('contained_permission_ids: a permission cannot contain itself');
    }
    await checkContained(tx.db, projectId, contained);
    await insertDefinition(tx.db, projectId, definition.id, definition.description, ctx.clock.now());
    await setContainedPermissions(tx.db, projectId, definition.id, contained);
    await record(tx, 'permission_definition.created', { userId: null, data: { permission_id: definition.id } });
  });
}

/** A change to a definition: a new id, description, or what it contains directly. */
export interface DefinitionChanges {
  id?: string;
  description?: string;
  contained_permission_ids?: readonly string[];
}

/**
 * Changes a custom definition (PERMISSION_NOT_FOUND, or SCHEMA_ERROR for a
 * system one, a taken new id or a change that would close a cycle); answers
 * its id after the change.
 */
export function updateDefinition(
  ctx: ActionContext,
  permissionId: string,
  changes: DefinitionChanges,
): Promise<string> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    await lockDefinitions(tx.db, projectId);
    const current = await customDefinition(tx.db, projectId, permissionId);
    let id = current.id;
    const fields = (['id', 'description', 'contained_permission_ids'] as const).filter(
      (field) => changes[field] !== undefined,
    );
    if (changes.id !== undefined && changes.id !== id) {
      if (await findDefinition(tx.db, projectId, changes.id)) {
        throw schemaError(`id: the permission "${changes.id}" exists`);
      }
      await changeDefinition(tx.db, projectId, id, { id: changes.id });
      await replaceInDefaults(tx.db, projectId, id, changes.id);
      id = changes.id;
    }
    if (changes.description !== undefined) {
      await changeDefinition(tx.db, projectId, id, { description: changes.description });
    }
    if (changes.contained_permission_ids !== undefined) {
      const contained = [...new Set(changes.contained_permission_ids)];
      await checkContained(tx.db, projectId, contained);
      for (const other of contained) {
        if (other === id || (await reachesPermission(tx.db, projectId, other, id))) {
          throw schemaError(`contained_permission_ids: "${other}" contains "${id}", so this would make a cycle`);
        }
      }
      await setContainedPermissions(tx.db, projectId, id, contained);
    }
    if (fields.length > 0) {
      await record(tx, 'permission_definition.updated', {
        userId: null,
        data: { permission_id: id, ...(id === current.id ? {} : { previous_id: current.id }), fields: [...fields] },
      });
    }
    return id;
  });
}

/** Deletes a custom definition with its grants, its place in other definitions and in the default lists. */
export function deleteDefinition(ctx: ActionContext, permissionId: string): Promise<void> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    await lockDefinitions(tx.db, projectId);
    const definition = await customDefinition(tx.db, projectId, permissionId);
    await deleteDefinitionRow(tx.db, projectId, definition.id);
    await replaceInDefaults(tx.db, projectId, definition.id, null);
    await record(tx, 'permission_definition.deleted', { userId: null, data: { permission_id: definition.id } });
  });
}

/** Refuses contained ids the project does not define: CONTAINED_PERMISSION_NOT_FOUND. */
async function checkContained(db: Db, projectId: string, ids: readonly string[]): Promise<void> {
  for (const id of new Set(ids)) {
    if (!(await findDefinition(db, projectId, id))) {
      throw new KnownError('CONTAINED_PERMISSION_NOT_FOUND', { permission_id: id });
    }
  }
}

/** The custom definition an action names: PERMISSION_NOT_FOUND, or SCHEMA_ERROR for a system one. */
async function customDefinition(db: Db, projectId: string, id: string) {
  const definition = await findDefinition(db, projectId, id);
  if (!definition) throw new KnownError('PERMISSION_NOT_FOUND', { permission_id: id });
  if (definition.is_system || isSystemPermissionId(id)) {
    throw schemaError(`the system permission "${id}" cannot be changed or deleted`);
  }
  return definition;
}

/** Renames (`to` set) or removes (`to` null) a permission in the project's default lists. */
async function replaceInDefaults(db: Db, projectId: string, from: string, to: string | null): Promise<void> {
  await changeProjectConfig(db, projectId, (stored) => {
    const config = (stored ?? {}) as Record<string, unknown>;
    const next = { ...config };
    for (const key of ['team_creator_default_permissions', 'team_member_default_permissions'] as const) {
      const list = projectConfigSchema.shape[key].safeParse(config[key]);
      if (!list.success) continue;
      const ids = list.data.map((entry) => (entry.id === from ? to : entry.id)).filter((id) => id !== null);
      next[key] = [...new Set(ids)].map((id) => ({ id }));
    }
    return next;
  });
}
