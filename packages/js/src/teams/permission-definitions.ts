/**
 * Team permission definitions (wire-protocol.md §14.4), for administrators:
 * the permissions a project defines and which contain which. The five system
 * permissions (`$update_team`, ...) are listed and cannot be changed.
 */
import type { TeamPermissionDefinitionWire } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { type Fields, optionalString, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import type { Query } from '../query.js';
import { ignoreAnswer } from '../users/users-api.js';

/**
 * A permission a project defines, and the permissions it contains (holding it grants them too).
 *
 * @example
 * ```ts
 * const definitions: TeamPermissionDefinition[] = await adminApp.listTeamPermissionDefinitions();
 * ```
 */
export interface TeamPermissionDefinition {
  id: string;
  description: string | null;
  containedPermissionIds: string[];
}

/**
 * Managing definitions. Ids hold lowercase letters, digits, `_` and `:`; a
 * change that would make the definitions contain each other in a cycle is
 * refused, and a renamed or deleted definition is renamed or removed in every
 * grant, every containing definition and the project's default lists.
 *
 * @example
 * ```ts
 * await adminApp.createTeamPermissionDefinition({ id: 'billing:read', containedPermissionIds: [] });
 * ```
 */
export interface TeamPermissionDefinitions {
  listTeamPermissionDefinitions(): Promise<TeamPermissionDefinition[]>;
  createTeamPermissionDefinition(options: {
    id: string;
    description?: string;
    containedPermissionIds: string[];
  }): Promise<TeamPermissionDefinition>;
  updateTeamPermissionDefinition(
    permissionId: string,
    options: { id?: string; description?: string; containedPermissionIds?: string[] },
  ): Promise<void>;
  deleteTeamPermissionDefinition(permissionId: string): Promise<void>;
}

function readDefinition(definition: Fields<TeamPermissionDefinitionWire>): TeamPermissionDefinition {
  return {
    id: definition.string('id'),
    description: optionalString(definition, 'description') ?? null,
    containedPermissionIds: definition.value<string[]>(
      'contained_permission_ids',
      (ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'),
      'a list of permission ids',
    ),
  };
}

const path = (id: string) => `/team-permission-definitions/${encodeURIComponent(id)}`;

function listDefinitions(send: Send): Promise<TeamPermissionDefinition[]> {
  return send({ method: 'GET', path: '/team-permission-definitions' }, (body) =>
    readFields<{ items: TeamPermissionDefinitionWire[] }, TeamPermissionDefinition[]>(body, (list) =>
      list.list('items', readDefinition),
    ),
  );
}

/**
 * The project's team permission definitions, as a query of `AdminApp`.
 *
 * @example
 * ```ts
 * const definitions = await adminApp.load(permissionDefinitionsQuery);
 * ```
 */
export const permissionDefinitionsQuery: Query<TeamPermissionDefinition[], AdminScope> = {
  key: ['permissionDefinitions'],
  load: ({ send }) => listDefinitions(send),
};

/** The definitions module of `AdminApp`. */
export function teamPermissionDefinitions(scope: AudienceScope): TeamPermissionDefinitions {
  const { send } = scope;
  return {
    listTeamPermissionDefinitions: () => listDefinitions(send),
    createTeamPermissionDefinition: (options) =>
      send(
        {
          method: 'POST',
          path: '/team-permission-definitions',
          body: definedFields({
            id: options.id,
            description: options.description,
            contained_permission_ids: options.containedPermissionIds,
          }),
        },
        (body) => readFields(body, readDefinition),
      ),
    updateTeamPermissionDefinition: (permissionId, options) =>
      send(
        {
          method: 'PATCH',
          path: path(permissionId),
          body: definedFields({
            id: options.id,
            description: options.description,
            contained_permission_ids: options.containedPermissionIds,
          }),
        },
        ignoreAnswer,
      ),
    deleteTeamPermissionDefinition: (permissionId) =>
      send({ method: 'DELETE', path: path(permissionId) }, ignoreAnswer),
  };
}
