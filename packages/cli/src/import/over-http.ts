/**
 * The writer of `latchkey import --api-url`: the same records, checks,
 * notices and counts as the local import (`importUsers` of the server
 * package), written through a running service's admin API instead of the
 * database. Each record is checked with the server's own checks first
 * (`checkImportRecord`), then written with the API's calls: `POST /teams`,
 * `POST /users` (the password hash as given, verified and re-hashed at the
 * first sign-in; the TOTP secret), `POST /contact-channels` for the other
 * addresses, `POST /team-memberships` and `/team-permissions`.
 *
 * The API keeps no source ids and no provider accounts: a user with OAuth
 * accounts is refused (`needs_local_import`), and a run again finds what it
 * wrote by e-mail (a user whose address the project has is counted as
 * existing) and teams by their display name. A user whose later calls fail is
 * deleted again, so nothing is left half-written.
 */
import type { ImportCounts, ImportItem, ImportNotice, ImportRecord, SkipReason } from '@latchkey/server';
import type { AdminSend } from '../internal/admin-target.js';
import type { ServerModule } from '../internal/service.js';

export interface OverHttpOptions {
  dryRun: boolean;
  /** The server package's record checks. */
  check: ServerModule['checkImportRecord'];
  onNotice: (notice: ImportNotice) => void;
  onBatch: (counts: ImportCounts) => void;
  /** Records between two `onBatch` calls (default 100). */
  batchSize?: number;
}

type ImportUser = Extract<ImportRecord, { type: 'user' }>;
type ImportTeam = Extract<ImportRecord, { type: 'team' }>;
type ImportPermission = Extract<ImportRecord, { type: 'permission' }>;

interface WireUser {
  id: string;
  primary_email: string | null;
}

/** A known error the service answered (`x-stack-known-error`), as `httpAdmin`'s send throws it. */
function knownCode(error: unknown): string | null {
  const message = error instanceof Error ? error.message : '';
  return /^[A-Z][A-Z_]+(?=:|$)/.exec(message)?.[0] ?? null;
}

export async function importOverHttp(
  send: AdminSend,
  items: AsyncIterable<ImportItem>,
  options: OverHttpOptions,
): Promise<ImportCounts> {
  const counts: ImportCounts = {
    read: 0,
    users_imported: 0,
    users_existing: 0,
    teams_imported: 0,
    teams_existing: 0,
    permissions_imported: 0,
    permissions_existing: 0,
    skipped: 0,
    warnings: 0,
    skipped_by_reason: {},
    last_line: 0,
  };
  const batchSize = options.batchSize ?? 100;
  const skip = (line: number, reason: SkipReason, message: string) => {
    counts.skipped++;
    counts.skipped_by_reason[reason] = (counts.skipped_by_reason[reason] ?? 0) + 1;
    options.onNotice({ line, kind: 'skipped', reason, message });
  };
  const warn = (line: number, message: string) => {
    counts.warnings++;
    options.onNotice({ line, kind: 'warning', message });
  };

  const definitions = await send<{ items: { id: string }[] }>('GET', '/team-permission-definitions');
  const permissionIds = new Set(definitions.items.map((definition) => definition.id));
  const existingTeams = new Map<string, string[]>();
  for (const team of (await send<{ items: { id: string; display_name: string }[] }>('GET', '/teams')).items) {
    existingTeams.set(team.display_name, [...(existingTeams.get(team.display_name) ?? []), team.id]);
  }
  /** Source team id to team id (a planned one in a dry run). */
  const teamIds = new Map<string, string>();
  /** Sign-in addresses (lower case) written (or planned) by this run. */
  const ownAddresses = new Set<string>();

  async function addTeam(line: number, team: ImportTeam): Promise<void> {
    if (teamIds.has(team.id)) {
      counts.teams_existing++;
      return;
    }
    const name = team.display_name.trim();
    const same = existingTeams.get(name) ?? [];
    if (same.length === 1) {
      teamIds.set(team.id, same[0]!);
      counts.teams_existing++;
      return;
    }
    if (same.length > 1) warn(line, `${same.length} teams are named "${name}" already: a new one is made`);
    if (options.dryRun) {
      teamIds.set(team.id, `planned:${team.id}`);
    } else {
      const created = await send<{ id: string }>('POST', '/teams', {
        display_name: name,
        profile_image_url: team.profile_image_url,
        ...metadataOf(team),
      });
      teamIds.set(team.id, created.id);
    }
    counts.teams_imported++;
  }

  /** The user of the project with this address as their primary e-mail, if any. */
  async function userWithAddress(address: string): Promise<WireUser | null> {
    const query = new URLSearchParams({ query: address, limit: '100' });
    const page = await send<{ items: WireUser[] }>('GET', `/users?${query}`);
    return page.items.find((user) => user.primary_email?.toLowerCase() === address.toLowerCase()) ?? null;
  }

  async function addUser(line: number, user: ImportUser): Promise<void> {
    const checked = options.check(user);
    if (checked.refused) return skip(line, checked.refused.reason, checked.refused.message);
    if (user.oauth.length > 0) {
      return skip(
        line,
        'needs_local_import',
        `${user.oauth.map((account) => account.provider).join(', ')} account${user.oauth.length > 1 ? 's' : ''}: the API cannot link OAuth accounts; import into the database (--data-dir or DATABASE_URL)`,
      );
    }
    const [primary, ...others] = checked.emails;
    const authAddresses = checked.emails.filter((e) => e.used_for_auth).map((e) => e.address.toLowerCase());
    const mine = authAddresses.find((address) => ownAddresses.has(address));
    if (mine !== undefined) return skip(line, 'duplicate_email', `another user signs in with ${mine}`);
    if (primary && (await userWithAddress(primary.address))) {
      // Written by an earlier run (the API keeps no source id); a later record with its addresses is a duplicate.
      for (const address of authAddresses) ownAddresses.add(address);
      counts.users_existing++;
      return;
    }
    const warnings = [...checked.warnings];
    if (options.dryRun) {
      for (const address of authAddresses) ownAddresses.add(address);
      counts.users_imported++;
      for (const membership of user.teams) {
        if (!teamIds.has(membership.team_id))
          warnings.push(`team ${membership.team_id} is not in the input: membership left out`);
      }
      for (const warning of warnings) warn(line, warning);
      return;
    }

    let created: WireUser;
    try {
      created = await send<WireUser>('POST', '/users', {
        primary_email: primary?.address ?? null,
        primary_email_verified: primary?.verified ?? false,
        primary_email_auth_enabled: primary?.used_for_auth ?? false,
        ...(user.password_hash !== null ? { password_hash: user.password_hash } : {}),
        display_name: user.display_name,
        profile_image_url: user.profile_image_url,
        ...metadataOf(user),
        ...(checked.totpSecretBase64 !== null ? { totp_secret_base64: checked.totpSecretBase64 } : {}),
      });
    } catch (error) {
      if (knownCode(error) !== 'USER_EMAIL_ALREADY_EXISTS') throw error;
      return skip(line, 'duplicate_email', `another user signs in with ${primary?.address}`);
    }
    try {
      for (const email of others) {
        await send('POST', '/contact-channels', {
          user_id: created.id,
          value: email.address,
          type: 'email',
          used_for_auth: email.used_for_auth,
          is_verified: email.verified,
          is_primary: false,
        });
      }
      for (const membership of user.teams) {
        const teamId = teamIds.get(membership.team_id);
        if (!teamId) {
          warnings.push(`team ${membership.team_id} is not in the input: membership left out`);
          continue;
        }
        await joinTeam(created.id, teamId, membership.permissions, warnings);
      }
    } catch (error) {
      // Nothing half-written: the user goes again, then the failure is a skip or stops the run.
      await send('DELETE', `/users/${encodeURIComponent(created.id)}`);
      const code = knownCode(error);
      if (code === 'USER_EMAIL_ALREADY_EXISTS' || code === 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE') {
        return skip(line, 'duplicate_email', 'another user signs in with one of the addresses');
      }
      throw error;
    }
    for (const address of authAddresses) ownAddresses.add(address);
    counts.users_imported++;
    for (const warning of warnings) warn(line, warning);
  }

  /** A membership with exactly the source's permissions (the API adds the project's member defaults first). */
  async function joinTeam(userId: string, teamId: string, permissions: string[], warnings: string[]): Promise<void> {
    const member = `${encodeURIComponent(teamId)}/${encodeURIComponent(userId)}`;
    await send('POST', `/team-memberships/${member}`, {});
    const wanted = new Set<string>();
    for (const permission of new Set(permissions)) {
      if (permissionIds.has(permission)) wanted.add(permission);
      else warnings.push(`permission ${permission} is not defined in the project: not granted`);
    }
    const query = new URLSearchParams({ team_id: teamId, user_id: userId });
    const granted = new Set(
      (await send<{ items: { id: string }[] }>('GET', `/team-permissions?${query}`)).items.map((grant) => grant.id),
    );
    for (const permission of granted) {
      if (!wanted.has(permission)) {
        await send('DELETE', `/team-permissions/${member}/${encodeURIComponent(permission)}`);
      }
    }
    for (const permission of wanted) {
      if (!granted.has(permission)) {
        await send('POST', `/team-permissions/${member}/${encodeURIComponent(permission)}`, {});
      }
    }
  }

  /** A permission definition the project lacks, with the contained ones it has (the others warned of). */
  async function addPermission(line: number, record: ImportPermission): Promise<void> {
    if (permissionIds.has(record.id)) {
      counts.permissions_existing++;
      return;
    }
    const contained = record.contained_permission_ids.filter((id) => {
      if (permissionIds.has(id)) return true;
      warn(line, `contained permission ${id} is not defined in the project: left out`);
      return false;
    });
    if (options.dryRun) {
      // Planned: later records may name it.
      permissionIds.add(record.id);
      counts.permissions_imported++;
      return;
    }
    await send('POST', '/team-permission-definitions', {
      id: record.id,
      ...(record.description === null ? {} : { description: record.description }),
      contained_permission_ids: contained,
    });
    permissionIds.add(record.id);
    counts.permissions_imported++;
  }

  let sinceBatch = 0;
  for await (const item of items) {
    counts.read++;
    const { record, line } = item;
    if (record.type === 'team' || record.type === 'permission') {
      const checked = options.check(record);
      if (checked.refused) skip(line, checked.refused.reason, checked.refused.message);
      else if (record.type === 'team') await addTeam(line, record);
      else await addPermission(line, record);
    } else {
      await addUser(line, record);
    }
    counts.last_line = line;
    if (++sinceBatch >= batchSize) {
      sinceBatch = 0;
      options.onBatch({ ...counts, skipped_by_reason: { ...counts.skipped_by_reason } });
    }
  }
  if (sinceBatch > 0) options.onBatch({ ...counts, skipped_by_reason: { ...counts.skipped_by_reason } });
  return counts;
}

function metadataOf(record: {
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['client_metadata', 'client_read_only_metadata', 'server_metadata'] as const) {
    if (record[key] !== null && record[key] !== undefined) out[key] = record[key];
  }
  return out;
}
