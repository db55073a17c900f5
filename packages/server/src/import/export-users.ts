/**
 * The export: a project's custom permission definitions, its teams, then its users, as records of the generic
 * format the import reads (`import-records.ts`), a page of users at a time.
 * Password hashes go out as stored (PHC or MCF strings); TOTP secrets, sealed
 * at rest, only when the caller passes the sealer that opens them.
 */
import { listChannelsOfUsers } from '../contact-channels/contact-channel-store.js';
import type { Sealer } from '../crypto/encryption.js';
import { listActiveTotpSecrets, totpSealContext } from '../mfa/mfa-store.js';
import { listAccountsOfUsers } from '../oauth/oauth-account-store.js';
import { type DefinitionView, listDefinitions } from '../permissions/definition-store.js';
import { isSystemPermissionId, listGrantsOfUsers } from '../permissions/permission-store.js';
import type { Db } from '../storage/db.js';
import { listMembershipsOfUsers, listProjectTeams } from '../teams/team-store.js';
import { listUsersById } from '../users/user-store.js';
import { base32Text, type ImportRecord, type ImportUserRecord } from './import-records.js';

const pageSize = 1_000;

function byUser<T extends { user_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.user_id);
    if (list) list.push(row);
    else map.set(row.user_id, [row]);
  }
  return map;
}

/**
 * The custom definitions (system ones every project has), each after those it
 * contains, so an import can create them in order.
 */
function definitionsInOrder(definitions: readonly DefinitionView[]): DefinitionView[] {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const ordered: DefinitionView[] = [];
  const placed = new Set<string>();
  const place = (definition: DefinitionView) => {
    if (placed.has(definition.id)) return;
    placed.add(definition.id); // before its contents: the graph has no cycles, this only guards
    for (const id of definition.contained_permission_ids) {
      const contained = byId.get(id);
      if (contained) place(contained);
    }
    ordered.push(definition);
  };
  for (const definition of definitions) place(definition);
  return ordered;
}

/** The project's custom permission definitions, its teams, then its users, in id order. */
export async function* exportRecords(
  db: Db,
  projectId: string,
  options: { totpSealer: Sealer | null },
): AsyncIterable<ImportRecord> {
  const custom = (await listDefinitions(db, projectId)).filter((definition) => !isSystemPermissionId(definition.id));
  for (const definition of definitionsInOrder(custom)) {
    yield {
      type: 'permission',
      id: definition.id,
      description: definition.description ?? null,
      contained_permission_ids: definition.contained_permission_ids,
    };
  }
  for (const team of await listProjectTeams(db, projectId)) {
    yield {
      type: 'team',
      id: team.id,
      display_name: team.display_name,
      profile_image_url: team.profile_image_url,
      client_metadata: team.client_metadata,
      client_read_only_metadata: team.client_read_only_metadata,
      server_metadata: team.server_metadata,
      created_at_millis: team.created_at.getTime(),
    };
  }
  let after: string | null = null;
  for (;;) {
    const users = await listUsersById(db, projectId, after, pageSize);
    if (users.length === 0) return;
    after = users[users.length - 1]!.id;
    const ids = users.map((user) => user.id);
    const [channels, accounts, members, grants, secrets] = await Promise.all([
      listChannelsOfUsers(db, projectId, ids),
      listAccountsOfUsers(db, projectId, ids),
      listMembershipsOfUsers(db, projectId, ids),
      listGrantsOfUsers(db, projectId, ids),
      options.totpSealer ? listActiveTotpSecrets(db, projectId, ids) : Promise.resolve(new Map<string, string>()),
    ]);
    const channelsOf = byUser(channels);
    const accountsOf = byUser(accounts);
    const membersOf = byUser(members);
    const grantsOf = byUser(grants);
    for (const user of users) {
      const sealed = secrets.get(user.id);
      const record: ImportUserRecord = {
        type: 'user',
        id: user.id,
        emails: (channelsOf.get(user.id) ?? [])
          .sort((a, b) => Number(b.is_primary) - Number(a.is_primary))
          .map((channel) => ({
            address: channel.value,
            verified: channel.is_verified,
            primary: channel.is_primary,
            used_for_auth: channel.used_for_auth,
          })),
        display_name: user.display_name,
        profile_image_url: user.profile_image_url,
        password_hash: user.password_hash,
        client_metadata: user.client_metadata,
        client_read_only_metadata: user.client_read_only_metadata,
        server_metadata: user.server_metadata,
        signed_up_at_millis: user.signed_up_at.getTime(),
        oauth: (accountsOf.get(user.id) ?? []).map((account) => ({
          provider: account.provider_id,
          account_id: account.account_id,
          email: account.email,
        })),
        totp_secret_base32:
          sealed && options.totpSealer
            ? base32Text(
                Buffer.from(
                  options.totpSealer.open(sealed, totpSealContext({ projectId, userId: user.id }, 'active')),
                  'base64',
                ),
              )
            : null,
        teams: (membersOf.get(user.id) ?? []).map((member) => ({
          team_id: member.team_id,
          permissions: (grantsOf.get(user.id) ?? [])
            .filter((grant) => grant.team_id === member.team_id)
            .map((grant) => grant.permission_id),
        })),
      };
      yield record;
    }
  }
}
