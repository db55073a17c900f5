/**
 * The export: a project's teams, then its users, as records of the generic
 * format the import reads (`import-records.ts`), a page of users at a time.
 * Password hashes go out as stored (PHC or MCF strings); TOTP secrets, sealed
 * at rest, only when the caller passes the sealer that opens them.
 */
import type { Sealer } from '../crypto/encryption.js';
import { totpSealContext } from '../mfa/mfa-store.js';
import type { Db } from '../storage/db.js';
import { base32Text, type ImportRecord, type ImportUserRecord } from './import-records.js';

const pageSize = 1_000;

/** The project's teams, then its users, in id order. */
export async function* exportRecords(
  db: Db,
  projectId: string,
  options: { totpSealer: Sealer | null },
): AsyncIterable<ImportRecord> {
  const teams = await db.selectFrom('teams').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  for (const team of teams) {
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
    let query = db.selectFrom('users').selectAll().where('project_id', '=', projectId);
    if (after !== null) query = query.where('id', '>', after);
    const users = await query.orderBy('id').limit(pageSize).execute();
    if (users.length === 0) return;
    after = users[users.length - 1]!.id;
    const ids = users.map((user) => user.id);
    const [channels, accounts, members, permissions, mfa] = await Promise.all([
      db
        .selectFrom('contact_channels')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('user_id', 'in', ids)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('oauth_accounts')
        .select(['user_id', 'provider_id', 'account_id', 'email'])
        .where('project_id', '=', projectId)
        .where('user_id', 'in', ids)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('team_members')
        .select(['user_id', 'team_id'])
        .where('project_id', '=', projectId)
        .where('user_id', 'in', ids)
        .orderBy('team_id')
        .execute(),
      db
        .selectFrom('team_member_permissions')
        .select(['user_id', 'team_id', 'permission_id'])
        .where('project_id', '=', projectId)
        .where('user_id', 'in', ids)
        .orderBy('permission_id')
        .execute(),
      options.totpSealer
        ? db
            .selectFrom('user_mfa')
            .select(['user_id', 'totp_secret_sealed'])
            .where('project_id', '=', projectId)
            .where('user_id', 'in', ids)
            .where('totp_secret_sealed', 'is not', null)
            .execute()
        : Promise.resolve([]),
    ]);
    const by = <T extends { user_id: string }>(rows: T[]) => {
      const map = new Map<string, T[]>();
      for (const row of rows) map.set(row.user_id, [...(map.get(row.user_id) ?? []), row]);
      return map;
    };
    const channelsOf = by(channels);
    const accountsOf = by(accounts);
    const membersOf = by(members);
    const permissionsOf = by(permissions);
    const secrets = new Map(mfa.map((row) => [row.user_id, row.totp_secret_sealed]));
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
          permissions: (permissionsOf.get(user.id) ?? [])
            .filter((grant) => grant.team_id === member.team_id)
            .map((grant) => grant.permission_id),
        })),
      };
      yield record;
    }
  }
}
