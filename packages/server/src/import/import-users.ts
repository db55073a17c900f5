/**
 * The import engine: records of the generic format in (teams before the users
 * that name them), users with their addresses, provider accounts, TOTP
 * secrets, teams and memberships out. Records are checked one by one
 * (`import-records.ts`), then written a batch at a time: a few queries find
 * what the project has already, and one transaction inserts the rest, so an
 * interruption leaves whole batches and never half a user.
 *
 * Password hashes are stored as given and verified at the first sign-in,
 * which re-hashes them. The source's id is kept as the external id; a record
 * whose external id the project has is counted as existing and left as it is,
 * which makes a run repeatable and resumable. A source id that is a UUID free
 * in the database becomes the id too (a round trip keeps ids).
 *
 * Imports are operator work on a whole data set: they record no per-user
 * events (no audit rows, no webhooks) and give no personal team.
 */
import { randomUUID } from 'node:crypto';
import { isUuid } from '../common/ids.js';
import { findTakenAuthAddresses } from '../contact-channels/contact-channel-store.js';
import type { Sealer } from '../crypto/encryption.js';
import { totpSealContext } from '../mfa/mfa-store.js';
import { findTakenAccounts } from '../oauth/oauth-account-store.js';
import { listPermissionIds } from '../permissions/definition-store.js';
import { analyzeTables, type Db, inTransaction } from '../storage/db.js';
import { isUniqueViolation, json } from '../storage/schema.js';
import { findTakenTeamIds, findTeamsByExternalId } from '../teams/team-store.js';
import { findTakenUserIds, findUsersByExternalId, setBulkUserWrites } from '../users/user-store.js';
import { type BatchRows, insertBatch } from './import-batch.js';
import {
  type CheckedUser,
  checkPermission,
  checkTeam,
  checkUser,
  type ImportPermissionRecord,
  type ImportRecord,
  type ImportTeamRecord,
  Refusal,
  type SkipReason,
} from './import-records.js';

/** A record and the line (or row) of the input it came from. */
export interface ImportItem {
  record: ImportRecord;
  line: number;
}

/** A record skipped, or imported with a loss. */
export interface ImportNotice {
  line: number;
  kind: 'skipped' | 'warning';
  /** For a skipped record. */
  reason?: SkipReason;
  message: string;
}

/** Counts so far: after every batch, and at the end. */
export interface ImportCounts {
  read: number;
  users_imported: number;
  users_existing: number;
  /** Custom permission definitions created; those the project had are kept as they are and counted as existing. */
  permissions_imported: number;
  permissions_existing: number;
  teams_imported: number;
  teams_existing: number;
  skipped: number;
  warnings: number;
  /** Per reason, the records skipped. */
  skipped_by_reason: Partial<Record<SkipReason, number>>;
  /** The input line of the last record written (or checked, in a dry run): a resumed run starts after it. */
  last_line: number;
}

export interface ImportOptions {
  projectId: string;
  /** Check everything, write nothing. */
  dryRun?: boolean;
  /** Records per transaction (default 500). */
  batchSize?: number;
  /** Seals TOTP secrets (the project config sealer); without it a user with one is skipped. */
  totpSealer: Sealer | null;
  now?: number;
  onNotice?: (notice: ImportNotice) => void;
  /** After each batch is committed (checked, in a dry run). */
  onBatch?: (counts: ImportCounts) => void;
}

interface PendingTeam {
  line: number;
  record: ImportTeamRecord;
}

interface PendingUser {
  line: number;
  checked: CheckedUser;
}

/** Imports the records into the project; answers the counts. */
export async function importRecords(
  db: Db,
  items: AsyncIterable<ImportItem>,
  options: ImportOptions,
): Promise<ImportCounts> {
  const run = new ImportRun(db, options);
  await run.start();
  const bulk = !options.dryRun && (await setBulkUserWrites(db, true));
  try {
    for await (const item of items) await run.add(item);
    await run.flush();
  } finally {
    await run.settled();
    if (bulk) await setBulkUserWrites(db, false);
  }
  await run.drain();
  return run.counts;
}

/** The tables an import writes to, which it has PostgreSQL sample as they grow (`analyzeTables`). */
const importedTables = [
  'users',
  'contact_channels',
  'oauth_accounts',
  'user_mfa',
  'teams',
  'team_members',
  'team_member_permissions',
] as const;

/** Batches written at once (each on its own connection; PGlite runs them one after another). */
const maxWriting = 4;

class ImportRun {
  readonly counts: ImportCounts = {
    read: 0,
    users_imported: 0,
    users_existing: 0,
    permissions_imported: 0,
    permissions_existing: 0,
    teams_imported: 0,
    teams_existing: 0,
    skipped: 0,
    warnings: 0,
    skipped_by_reason: {},
    last_line: 0,
  };
  private readonly batchSize: number;
  private readonly now: number;
  /** Source team id to team id, for the memberships of later records. */
  private readonly teamIds = new Map<string, string>();
  private permissionIds = new Set<string>();
  /** What a dry run would have written (a real run finds it in the database). */
  private readonly planned = {
    externalIds: new Set<string>(),
    ids: new Set<string>(),
    addresses: new Set<string>(),
    accounts: new Set<string>(),
  };
  private permissions: { line: number; record: ImportPermissionRecord }[] = [];
  private teams: PendingTeam[] = [];
  private users: PendingUser[] = [];
  private lastLine = 0;
  /** Batches being written, oldest first. */
  private writing: Promise<void>[] = [];
  /** The users written when the tables that foreign keys point at are next sampled (`analyzeTables`). */
  private nextAnalysis = 1_000;

  constructor(
    private readonly db: Db,
    private readonly options: ImportOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.now = options.now ?? Date.now();
  }

  async start(): Promise<void> {
    this.permissionIds = await listPermissionIds(this.db, this.options.projectId);
  }

  async add(item: ImportItem): Promise<void> {
    this.counts.read++;
    this.lastLine = item.line;
    try {
      if (item.record.type === 'permission') {
        checkPermission(item.record);
        this.permissions.push({ line: item.line, record: item.record });
      } else if (item.record.type === 'team') {
        checkTeam(item.record);
        this.teams.push({ line: item.line, record: item.record });
      } else {
        const checked = checkUser(item.record);
        if (checked.totpSecretBase64 !== null && !this.options.totpSealer) {
          throw new Refusal('invalid_field', 'a TOTP secret, and no master secret to seal it with');
        }
        this.users.push({ line: item.line, checked });
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.skip(item.line, error.reason, error.message);
    }
    if (this.permissions.length + this.teams.length + this.users.length >= this.batchSize) await this.flush();
  }

  private skip(line: number, reason: SkipReason, message: string): void {
    this.counts.skipped++;
    this.counts.skipped_by_reason[reason] = (this.counts.skipped_by_reason[reason] ?? 0) + 1;
    this.options.onNotice?.({ line, kind: 'skipped', reason, message });
  }

  private warn(line: number, message: string): void {
    this.counts.warnings++;
    this.options.onNotice?.({ line, kind: 'warning', message });
  }

  /**
   * Checks the records gathered so far against the database and starts
   * writing them (nothing, in a dry run). Up to `maxWriting` batches are
   * written at once on their own connections while the next is read and
   * checked; they are counted, and `onBatch` told, in input order. A batch
   * with teams is waited for before the next, whose members may join them.
   */
  async flush(): Promise<void> {
    if (!this.options.dryRun && this.counts.users_imported >= this.nextAnalysis) {
      // Each time the users written double, so that plans (the lookups', foreign-key checks') fit the tables' size.
      this.nextAnalysis = this.counts.users_imported * 2;
      await analyzeTables(this.db, importedTables);
    }
    const permissions = this.permissions;
    const teams = this.teams;
    const users = this.users;
    const lastLine = this.lastLine;
    this.permissions = [];
    this.teams = [];
    this.users = [];
    const rows = emptyRows();
    const plannedPermissions = this.planPermissions(permissions, rows);
    const plannedTeams = await this.planTeams(teams, rows);
    const plannedUsers = await this.planUsers(users, rows);
    const written =
      this.options.dryRun || (rows.definitions.length === 0 && teams.length === 0 && users.length === 0)
        ? Promise.resolve()
        : this.write(rows, plannedUsers);
    const previous = this.writing.at(-1) ?? Promise.resolve();
    const done = Promise.all([previous, written]).then(() => {
      this.counts.permissions_imported += plannedPermissions;
      this.counts.teams_imported += plannedTeams;
      for (const user of plannedUsers) this.note(user);
      this.counts.last_line = lastLine;
      this.options.onBatch?.({ ...this.counts, skipped_by_reason: { ...this.counts.skipped_by_reason } });
    });
    done.catch(() => {}); // awaited in turn below; marked handled so a failure waits for its turn
    this.writing.push(done);
    if (plannedTeams > 0 || plannedPermissions > 0) await this.drain();
    while (this.writing.length >= maxWriting) await this.writing.shift();
  }

  /** Waits for every batch being written to be written or to fail, leaving a failure for `drain` to throw. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.writing);
  }

  /** Waits for every batch being written. */
  async drain(): Promise<void> {
    while (this.writing.length > 0) await this.writing.shift();
  }

  private note(user: PlannedUser): void {
    if (user.refused) return;
    this.counts.users_imported++;
    for (const warning of user.warnings) this.warn(user.line, warning);
  }

  /**
   * Definitions the project lacks are planned; one it has is kept as it is.
   * A definition may contain only permissions the project has or the input
   * defined before it (which also keeps the containment graph free of cycles).
   */
  private planPermissions(permissions: { line: number; record: ImportPermissionRecord }[], rows: BatchRows): number {
    let planned = 0;
    for (const { line, record } of permissions) {
      if (this.permissionIds.has(record.id)) {
        this.counts.permissions_existing++;
        continue;
      }
      rows.definitions.push({
        project_id: this.options.projectId,
        id: record.id,
        description: record.description,
        is_system: false,
        created_at: new Date(this.now),
      });
      for (const contained of new Set(record.contained_permission_ids)) {
        if (!this.permissionIds.has(contained)) {
          this.warn(line, `contained permission ${contained} is not defined before ${record.id}: left out`);
          continue;
        }
        rows.inclusions.push({ project_id: this.options.projectId, permission_id: record.id, contained_id: contained });
      }
      this.permissionIds.add(record.id);
      planned++;
    }
    return planned;
  }

  private async planTeams(teams: PendingTeam[], rows: BatchRows): Promise<number> {
    if (teams.length === 0) return 0;
    const { projectId } = this.options;
    const existing = await findTeamsByExternalId(
      this.db,
      projectId,
      teams.map((team) => team.record.id),
    );
    const wanted = teams.map((team) => team.record.id.toLowerCase()).filter(isUuid);
    const taken = await findTakenTeamIds(this.db, wanted);
    let planned = 0;
    for (const { line, record } of teams) {
      const known = existing.get(record.id) ?? this.teamIds.get(record.id);
      if (known) {
        this.teamIds.set(record.id, known);
        this.counts.teams_existing++;
        continue;
      }
      const own = record.id.toLowerCase();
      const id = isUuid(own) && !taken.has(own) && !this.planned.ids.has(own) ? own : randomUUID();
      this.planned.ids.add(id);
      this.teamIds.set(record.id, id);
      rows.teams.push({
        id,
        project_id: projectId,
        display_name: record.display_name.trim(),
        profile_image_url: record.profile_image_url,
        client_metadata: json(record.client_metadata),
        client_read_only_metadata: json(record.client_read_only_metadata),
        server_metadata: json(record.server_metadata),
        created_at: new Date(record.created_at_millis ?? this.now),
        external_id: record.id,
      });
      planned++;
      void line;
    }
    return planned;
  }

  private async planUsers(users: PendingUser[], rows: BatchRows): Promise<PlannedUser[]> {
    if (users.length === 0) return [];
    const { projectId } = this.options;
    const records = users.map((user) => user.checked.record);
    const authAddresses = users.flatMap((user) =>
      user.checked.emails.filter((email) => email.used_for_auth).map((email) => email.address.toLowerCase()),
    );
    const accountIds = users.flatMap((user) => user.checked.oauth.map((account) => account.account_id));
    const missingTeams = [
      ...new Set(records.flatMap((record) => record.teams.map((m) => m.team_id)).filter((id) => !this.teamIds.has(id))),
    ];
    const [existing, takenIds, takenAddresses, takenAccounts, foundTeams] = await Promise.all([
      findUsersByExternalId(
        this.db,
        projectId,
        records.map((record) => record.id),
      ),
      findTakenUserIds(this.db, records.map((record) => record.id.toLowerCase()).filter(isUuid)),
      findTakenAuthAddresses(this.db, projectId, authAddresses),
      findTakenAccounts(this.db, projectId, accountIds),
      findTeamsByExternalId(this.db, projectId, missingTeams),
    ]);
    for (const [source, id] of foundTeams) this.teamIds.set(source, id);

    const planned: PlannedUser[] = [];
    for (const { line, checked } of users) {
      const { record } = checked;
      if (existing.has(record.id) || this.planned.externalIds.has(record.id)) {
        this.counts.users_existing++;
        continue;
      }
      const addresses = checked.emails.filter((e) => e.used_for_auth).map((e) => e.address.toLowerCase());
      const clash = addresses.find((address) => takenAddresses.has(address) || this.planned.addresses.has(address));
      if (clash !== undefined) {
        this.skip(line, 'duplicate_email', `another user signs in with ${clash}`);
        continue;
      }
      const accountKeys = checked.oauth.map((account) => `${account.provider}\n${account.account_id}`);
      const account = accountKeys.find((key) => takenAccounts.has(key) || this.planned.accounts.has(key));
      if (account !== undefined) {
        this.skip(line, 'duplicate_oauth_account', `the ${account.split('\n')[0]} account is another user's`);
        continue;
      }
      const own = record.id.toLowerCase();
      const id = isUuid(own) && !takenIds.has(own) && !this.planned.ids.has(own) ? own : randomUUID();
      this.planned.ids.add(id);
      this.planned.externalIds.add(record.id);
      for (const address of addresses) this.planned.addresses.add(address);
      for (const key of accountKeys) this.planned.accounts.add(key);
      planned.push(this.userRows(line, checked, id));
    }
    for (const user of planned) appendRows(rows, user.rows);
    return planned;
  }

  private userRows(line: number, checked: CheckedUser, id: string): PlannedUser {
    const { projectId } = this.options;
    const { record } = checked;
    const warnings = [...checked.warnings];
    const signedUp = new Date(record.signed_up_at_millis ?? this.now);
    const primary = checked.emails[0];
    const rows = emptyRows();
    const totp = checked.totpSecretBase64;
    rows.users.push({
      id,
      project_id: projectId,
      display_name: record.display_name === '' ? null : record.display_name,
      primary_email: primary?.address ?? null,
      primary_email_verified: primary?.verified ?? false,
      primary_email_auth_enabled: primary?.used_for_auth ?? false,
      profile_image_url: record.profile_image_url,
      password_hash: record.password_hash,
      client_metadata: json(record.client_metadata),
      client_read_only_metadata: json(record.client_read_only_metadata),
      server_metadata: json(record.server_metadata),
      signed_up_at: signedUp,
      last_active_at: signedUp,
      selected_team_id: null,
      requires_totp_mfa: totp !== null,
      oauth_providers: JSON.stringify(
        checked.oauth.map((account) => ({
          id: account.provider,
          account_id: account.account_id,
          email: account.email,
        })),
      ),
      external_id: record.id,
    });
    for (const email of checked.emails) {
      rows.channels.push({
        id: randomUUID(),
        project_id: projectId,
        user_id: id,
        type: 'email',
        value: email.address,
        is_verified: email.verified,
        is_primary: email.primary,
        used_for_auth: email.used_for_auth,
        created_at: signedUp,
      });
    }
    for (const account of checked.oauth) {
      rows.accounts.push({
        project_id: projectId,
        provider_id: account.provider,
        account_id: account.account_id,
        user_id: id,
        email: account.email,
        access_token_sealed: null,
        refresh_token_sealed: null,
        access_token_expires_at: null,
        created_at: signedUp,
        updated_at: signedUp,
      });
    }
    if (totp !== null && this.options.totpSealer) {
      rows.mfa.push({
        project_id: projectId,
        user_id: id,
        totp_secret_sealed: this.options.totpSealer.seal(totp, totpSealContext({ projectId, userId: id }, 'active')),
        pending_totp_secret_sealed: null,
        last_totp_step: null,
        updated_at: new Date(this.now),
      });
    }
    const joined = new Set<string>();
    for (const membership of record.teams) {
      const teamId = this.teamIds.get(membership.team_id);
      if (!teamId) {
        warnings.push(`team ${membership.team_id} is not in the input nor the project: membership left out`);
        continue;
      }
      if (joined.has(teamId)) continue;
      joined.add(teamId);
      rows.members.push({
        project_id: projectId,
        team_id: teamId,
        user_id: id,
        display_name: null,
        profile_image_url: null,
        created_at: signedUp,
      });
      for (const permission of new Set(membership.permissions)) {
        if (!this.permissionIds.has(permission)) {
          warnings.push(`permission ${permission} is not defined in the project: not granted`);
          continue;
        }
        rows.permissions.push({ project_id: projectId, team_id: teamId, user_id: id, permission_id: permission });
      }
    }
    return { line, rows, warnings, refused: false };
  }

  /**
   * Writes the batch in one transaction. Should someone take an address or
   * an account meanwhile (a sign-up during the import), the batch is written
   * again user by user, and only the user who clashes is skipped.
   */
  private async write(rows: BatchRows, users: PlannedUser[]): Promise<void> {
    try {
      await inTransaction(this.db, (trx) => insertBatch(trx, rows));
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const teamsOnly = { ...emptyRows(), definitions: rows.definitions, inclusions: rows.inclusions, teams: rows.teams };
    await inTransaction(this.db, (trx) => insertBatch(trx, teamsOnly));
    for (const user of users) {
      try {
        await inTransaction(this.db, (trx) => insertBatch(trx, user.rows));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        user.refused = true;
        const account = isUniqueViolation(error, 'oauth_accounts_pkey');
        this.skip(
          user.line,
          account ? 'duplicate_oauth_account' : 'duplicate_email',
          account ? 'a provider account is another user’s' : 'another user signs in with one of the addresses',
        );
      }
    }
  }
}

interface PlannedUser {
  line: number;
  rows: BatchRows;
  warnings: string[];
  refused: boolean;
}

function emptyRows(): BatchRows {
  return {
    definitions: [],
    inclusions: [],
    teams: [],
    users: [],
    channels: [],
    accounts: [],
    mfa: [],
    members: [],
    permissions: [],
  };
}

function appendRows(to: BatchRows, from: BatchRows): void {
  const append = <K extends keyof BatchRows>(key: K) => {
    for (const row of from[key]) to[key].push(row as never);
  };
  for (const key of Object.keys(to) as (keyof BatchRows)[]) append(key);
}
