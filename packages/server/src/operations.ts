/**
 * What scripts, the CLI and tests may do to a storage without the HTTP API:
 * set it up, create projects and key sets, change a project's config. Each
 * is a thin door to the feature that owns the work; nothing here touches a
 * table.
 */

import { type ApiKeySetWire, internalProjectId, type ServerUserWire } from '@latchkey/protocol';
import { listKeySets } from './api-keys/api-key-store.js';
import { apiKeySetView } from './api-keys/api-key-views.js';
import type { CreateApiKeySetOptions, CreatedApiKeySet } from './api-keys/api-keys.js';
import { createApiKeySet as createApiKeySetAction, updateApiKeySet } from './api-keys/api-keys-actions.js';
import { deleteUnusedCodes } from './codes/code-store.js';
import type { Clock } from './common/clock.js';
import { validate } from './common/validate.js';
import { createSealer, type Sealer } from './crypto/encryption.js';
import { secretWeakness } from './crypto/secret-strength.js';
import { ensureDashboardKey } from './dashboard/dashboard-key.js';
import { type ActionContext, operatorContext } from './events/recorder.js';
import { exportRecords } from './import/export-users.js';
import {
  checkPermission,
  checkTeam,
  checkUser,
  type ImportRecord,
  Refusal,
  type SkipReason,
} from './import/import-records.js';
import { type ImportCounts, type ImportItem, type ImportNotice, importRecords } from './import/import-users.js';
import { listSealedMails, updateSealedMail } from './mail/outbox-store.js';
import { outboxSealer, resealContent } from './mail/sealed-mail.js';
import { resealTotpSecrets } from './mfa/mfa-store.js';
import { resealAccountTokens } from './oauth/oauth-account-store.js';
import { checkPasswordRequirements, PasswordHasher } from './password/passwords.js';
import {
  type BootstrapOptions,
  bootstrapDatabase,
  type DevProjectKeys,
  findDevProjectId,
  issueKeys,
} from './projects/bootstrap.js';
import {
  configSealerPurpose,
  hasConfigSecrets,
  openConfigSecrets,
  sealConfigSecrets,
} from './projects/config-secrets.js';
import { type ProjectConfig, type ProjectConfigPatch, parseStoredConfig } from './projects/project-config.js';
import { changeProjectConfig, listProjectIds } from './projects/project-store.js';
import {
  addOwner,
  type CreateProjectOptions,
  findProject,
  listProjects as listProjectRecords,
  type ProjectRecord,
} from './projects/projects.js';
import { createProject as createProjectAction, updateProject } from './projects/projects-actions.js';
import { changeFeedOf } from './storage/change-feed.js';
import { inTransaction } from './storage/db.js';
import { dbOf, type Storage } from './storage/open-storage.js';
import { listSealedKeys, updateSealedKey } from './tokens/signing-key-store.js';
import {
  checkSecretOpensKeys,
  SecretMismatchError,
  SigningKeys,
  associatedData as signingKeyData,
  signingKeyPurpose,
} from './tokens/signing-keys.js';
import { attachSelectedTeam, findUserByAuthEmail } from './users/user-store.js';
import { serverUserView } from './users/user-views.js';
import { type CreateUserInput, listUsers as listUserPageOf } from './users/users.js';
import { createUser as createUserAction } from './users/users-actions.js';
import { createUserBody } from './users/users-routes.js';
import { listSealedWebhookSecrets, updateSealedWebhookSecrets } from './webhooks/webhook-endpoint-store.js';
import { resealWebhookSecret, webhookSecretPurpose } from './webhooks/webhook-secrets.js';

/** The service secret, needed when a config holds secrets to seal (OAuth client secrets, an SMTP password). */
export interface SecretOption {
  secret?: string;
}

function sealerFor(options: SecretOption) {
  return options.secret ? createSealer(options.secret, configSealerPurpose) : null;
}

/**
 * Ensures the internal project exists. With `dev: true`, on the first start
 * (no project besides `internal`), also creates "Default project" with a full
 * key set and returns its keys, which are never shown again (they are stored
 * hashed); on later starts it returns null.
 *
 * Sign-up to the internal project (anyone becoming a dashboard owner) is open
 * with `dev: true`; otherwise it is what `internalSignUp` says, written at
 * every call that names it (so `latchkey start` closes a database that an
 * older version left open), and closed on a new database. Owners of a closed
 * one are made by the operator (`createOwner`).
 *
 * @example
 * const created = await bootstrap(storage, { dev: true });
 * if (created) console.log(created.projectId, created.publishableClientKey);
 * await bootstrap(storage, { dev: false, internalSignUp: false }); // production: owners only by invitation
 */
export async function bootstrap(storage: Storage, options: BootstrapOptions): Promise<DevProjectKeys | null> {
  return bootstrapDatabase(operator(storage, internalProjectId), storage.schema, options);
}

/**
 * The development project's id (the project `bootstrap` created), or null.
 *
 * @example
 * const projectId = await findDevProject(storage);
 */
export function findDevProject(storage: Storage): Promise<string | null> {
  return findDevProjectId(dbOf(storage));
}

/**
 * A new full key set for the development project (when its saved keys are
 * lost). Throws when the storage has no development project.
 *
 * @example
 * const keys = await issueDevKeys(storage);
 */
export async function issueDevKeys(
  storage: Storage,
  description = 'Development keys (re-issued)',
): Promise<DevProjectKeys> {
  const projectId = await findDevProject(storage);
  if (!projectId) throw new Error('the database has no development project');
  return issueKeys(operator(storage, projectId), description);
}

/**
 * Creates a project. Its signing key is created when the service first needs
 * it. A config with secrets needs the service `secret` to seal them.
 *
 * @example
 * const project = await createProject(storage, { displayName: 'My app', config: { allow_localhost: false } });
 */
export async function createProject(
  storage: Storage,
  options: CreateProjectOptions & SecretOption,
): Promise<ProjectRecord> {
  const { secret: _secret, ...project } = options;
  return (await createProjectAction(operator(storage, internalProjectId), project, sealerFor(options)))!;
}

/**
 * Merges `patch` into a project's config (lists replace the stored list) and
 * returns the new config, its secrets sealed. Throws SCHEMA_ERROR for an
 * invalid patch and PROJECT_NOT_FOUND for an unknown project.
 *
 * @example
 * await updateProjectConfig(storage, projectId, { client_user_deletion_enabled: true });
 */
export async function updateProjectConfig(
  storage: Storage,
  projectId: string,
  patch: ProjectConfigPatch,
  options: SecretOption = {},
): Promise<ProjectConfig> {
  return (await updateProject(operator(storage, projectId), { config: patch }, sealerFor(options))).config;
}

/**
 * What the dashboard needs at start: its publishable key of the internal
 * project (derived from `secret`, its key set inserted once:
 * `dashboard/dashboard-key.ts`), and, given the service's public URL, that URL
 * trusted by the internal project with the dashboard's handler path, so its
 * e-mailed links and OAuth redirects come back to the dashboard.
 *
 * @example
 * const { internalPublishableClientKey } = await prepareDashboard(storage, { secret, publicUrl: 'https://auth.example.com' });
 */
export async function prepareDashboard(
  storage: Storage,
  options: { secret: string; publicUrl?: string | undefined },
): Promise<{ internalPublishableClientKey: string }> {
  const internalPublishableClientKey = await ensureDashboardKey(dbOf(storage), options.secret);
  if (options.publicUrl) {
    const origin = new URL(options.publicUrl);
    const domain = `${origin.origin}${origin.pathname.replace(/\/+$/, '')}`;
    const internal = await findProject(dbOf(storage), internalProjectId);
    const domains = internal?.config.domains ?? [];
    if (!domains.some((entry) => entry.domain === domain)) {
      const handler_path = `${origin.pathname.replace(/\/+$/, '')}/dashboard/handler`;
      await updateProjectConfig(storage, internalProjectId, { domains: [...domains, { domain, handler_path }] });
    }
  }
  return { internalPublishableClientKey };
}

/**
 * Creates a key set for a project and returns its plaintext keys (shown once).
 *
 * @example
 * const { publishableClientKey, secretServerKey } = await createApiKeySet(storage, projectId, { description: 'CI' });
 */
export async function createApiKeySet(
  storage: Storage,
  projectId: string,
  options: CreateApiKeySetOptions = {},
): Promise<CreatedApiKeySet> {
  return createApiKeySetAction(operator(storage, projectId), options);
}

/**
 * A project's key sets, newest first, as `GET /internal/api-keys` shows them:
 * each key as its last four characters.
 *
 * @example
 * for (const set of await listApiKeySets(storage, projectId)) console.log(set.id, set.secret_server_key?.last_four);
 */
export async function listApiKeySets(storage: Storage, projectId: string): Promise<ApiKeySetWire[]> {
  return (await listKeySets(dbOf(storage), projectId)).map(apiKeySetView);
}

/**
 * Revokes a key set; its keys stop working at once. Returns false when the
 * project has no such key set or it is already revoked.
 *
 * @example
 * const keys = await createApiKeySet(storage, projectId);
 * await revokeApiKeySet(storage, projectId, keys.id); // true
 */
export async function revokeApiKeySet(
  storage: Storage,
  projectId: string,
  keySetId: string,
  options: { now?: number } = {},
): Promise<boolean> {
  const now = options.now;
  const ctx = operator(storage, projectId, now === undefined ? undefined : { now: () => now });
  return (await updateApiKeySet(ctx, keySetId, { revoke: true }))?.revokedNow ?? false;
}

/**
 * Makes `userId`, a user of the internal project, an owner of the project:
 * their access token then works as an admin access token for it (and the
 * project appears in their `GET /internal/projects`). Throws when there is no
 * such internal user or project.
 *
 * @example
 * const owner = await createUser(storage, 'internal', { primary_email: 'me@example.com', primary_email_auth_enabled: true, password });
 * await addProjectOwner(storage, projectId, owner.id);
 */
export async function addProjectOwner(storage: Storage, projectId: string, userId: string): Promise<void> {
  await addOwner(dbOf(storage), projectId, userId);
}

/**
 * Checks, before a service starts on `storage`, that `secret` is the master
 * secret its data was created with: it must open the newest stored signing
 * key. Resolves `opened`, or `no_keys` when no key is stored yet (nothing to
 * check: the first service creates them under its secret). Throws
 * `SecretMismatchError` otherwise; a service started anyway would fail every
 * sign-in. Reads only. During a rotation, pass the secret and the accepted
 * ones (`ServiceOptions.acceptedSecrets`): any of them may open the key.
 *
 * @example
 * await verifySecret(storage, process.env.LATCHKEY_SECRET!); // before createService
 */
export async function verifySecret(
  storage: Storage,
  secret: string | readonly string[],
): Promise<'opened' | 'no_keys'> {
  const result = await checkSecretOpensKeys(dbOf(storage), createSealer(secret, signingKeyPurpose));
  if (result === 'mismatch') {
    throw new SecretMismatchError(
      'the master secret does not open the stored signing keys: it differs from the one this database was created with',
    );
  }
  return result;
}

/**
 * Creates the internal project's signing key under `secret` when the storage
 * holds no signing key yet, so that every later start can check its secret
 * with `verifySecret` (otherwise nothing is sealed until the first sign-in,
 * and a start with another secret would go unnoticed). Does nothing when a
 * key exists. Call it after `bootstrap`, once `verifySecret` passed.
 *
 * @example
 * await verifySecret(storage, secret);
 * await bootstrap(storage, { dev: false });
 * await pinSecret(storage, secret);
 */
export async function pinSecret(storage: Storage, secret: string): Promise<void> {
  const db = dbOf(storage);
  const sealer = createSealer(secret, signingKeyPurpose);
  if ((await checkSecretOpensKeys(db, sealer)) !== 'no_keys') return;
  await new SigningKeys(db, sealer, { now: () => Date.now() }).signingKey(internalProjectId);
}

/** What `rotateSecret` re-sealed. */
export interface SecretRotation {
  signingKeys: number;
  projectConfigs: number;
  providerAccounts: number;
  /** Users with a TOTP secret (active or being enrolled). */
  totpSecrets: number;
  /** Mail bodies in the outbox (waiting, or kept by the dev mailbox). */
  queuedMails: number;
  /** Webhook endpoints, whose signing secrets (and the previous ones still overlapping) were sealed again. */
  webhookEndpoints: number;
  /** OAuth sign-ins in flight, ended (their verifiers were sealed under the old secret). */
  oauthFlowsEnded: number;
}

/**
 * Moves a database to a new master secret: every signing key, every sealed
 * secret of a project config (OAuth client secrets, SMTP passwords), every
 * provider token, every TOTP secret, every outbox body and every webhook
 * endpoint's signing secret is opened with `oldSecret` (or `newSecret`, for what is
 * sealed with it already) and sealed with `newSecret`, in one transaction, so
 * the database is never half-moved. Sign-ins through a provider that are in
 * flight end (they start again). Run it with every instance stopped, or while
 * they run with both secrets (`ServiceOptions.acceptedSecrets`, the rolling
 * rotation of docs/deploying.md). Throws
 * `SecretMismatchError` when `oldSecret` is not the database's, and a
 * `TypeError` when `newSecret` is weak.
 *
 * @example
 * await rotateSecret(storage, process.env.LATCHKEY_SECRET!, process.env.LATCHKEY_NEW_SECRET!);
 */
export async function rotateSecret(storage: Storage, oldSecret: string, newSecret: string): Promise<SecretRotation> {
  const weakness = secretWeakness(newSecret);
  if (weakness) throw new TypeError(`rotateSecret: the new master secret is too weak: ${weakness}`);
  await verifySecret(storage, [oldSecret, newSecret]);
  // Anything the old secret does not open means it is not this database's secret (a database without keys yet
  // is not checked by verifySecret): the transaction rolls back and nothing is moved.
  const mismatch = () =>
    new SecretMismatchError(
      'the old master secret does not open the sealed data: it is not the secret of this database',
    );
  const guarded = (sealer: Sealer): Sealer => ({
    seal: (value, data) => sealer.seal(value, data),
    open: (value, data) => {
      try {
        return sealer.open(value, data);
      } catch {
        throw mismatch();
      }
    },
  });
  // What instances running with both secrets sealed under the new one is opened (and sealed again) too.
  const from = {
    keys: guarded(createSealer([oldSecret, newSecret], signingKeyPurpose)),
    config: guarded(createSealer([oldSecret, newSecret], configSealerPurpose)),
    outbox: guarded(outboxSealer([oldSecret, newSecret])),
    webhooks: guarded(createSealer([oldSecret, newSecret], webhookSecretPurpose)),
  };
  const to = {
    keys: createSealer(newSecret, signingKeyPurpose),
    config: createSealer(newSecret, configSealerPurpose),
    outbox: outboxSealer(newSecret),
    webhooks: createSealer(newSecret, webhookSecretPurpose),
  };
  return inTransaction(dbOf(storage), async (trx) => {
    const keys = await listSealedKeys(trx);
    for (const key of keys) {
      const data = signingKeyData(key.project_id, key.kid);
      await updateSealedKey(trx, key.kid, to.keys.seal(from.keys.open(key.private_jwk_encrypted, data), data));
    }
    let projectConfigs = 0;
    for (const projectId of await listProjectIds(trx)) {
      await changeProjectConfig(trx, projectId, (stored: unknown) => {
        const config = parseStoredConfig(projectId, stored);
        if (!hasConfigSecrets(config)) return stored;
        projectConfigs++;
        let opened: ProjectConfig;
        try {
          opened = openConfigSecrets(config, projectId, from.config);
        } catch {
          throw mismatch();
        }
        return sealConfigSecrets(opened, projectId, to.config);
      });
    }
    const providerAccounts = await resealAccountTokens(trx, from.config, to.config);
    const totpSecrets = await resealTotpSecrets(trx, from.config, to.config);
    const mails = await listSealedMails(trx);
    for (const mail of mails) {
      await updateSealedMail(trx, mail.id, resealContent(from.outbox, to.outbox, mail.id, mail.sealed_content));
    }
    const endpoints = await listSealedWebhookSecrets(trx);
    for (const endpoint of endpoints) {
      const reseal = (sealed: string) => resealWebhookSecret(from.webhooks, to.webhooks, endpoint.id, sealed);
      await updateSealedWebhookSecrets(trx, endpoint.id, {
        secret_sealed: reseal(endpoint.secret_sealed),
        previous_secret_sealed: endpoint.previous_secret_sealed && reseal(endpoint.previous_secret_sealed),
      });
    }
    const oauthFlowsEnded = await deleteUnusedCodes(trx, 'oauth_flow');
    return {
      signingKeys: keys.length,
      projectConfigs,
      providerAccounts,
      totpSecrets,
      queuedMails: mails.length,
      webhookEndpoints: endpoints.length,
      oauthFlowsEnded,
    };
  });
}

/** A project as `listProjects` gives it (wire names). */
export interface ProjectSummary {
  id: string;
  display_name: string;
  /** Empty when the project has none. */
  description: string;
  created_at_millis: number;
  is_production_mode: boolean;
}

/**
 * Every project but the internal one, oldest first.
 *
 * @example
 * for (const project of await listProjects(storage)) console.log(project.id, project.display_name);
 */
export async function listProjects(storage: Storage): Promise<ProjectSummary[]> {
  return (await listProjectRecords(dbOf(storage))).map((project) => ({
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    created_at_millis: project.createdAt.getTime(),
    is_production_mode: project.isProductionMode,
  }));
}

/**
 * Creates a user of the internal project who signs in with `email` and
 * `password` (e-mail verified): an account that can own projects
 * (`addProjectOwner`) and sign in to the dashboard. Refusals are known errors
 * (USER_EMAIL_ALREADY_EXISTS, PASSWORD_TOO_SHORT, SCHEMA_ERROR...).
 *
 * @example
 * const owner = await createOwner(storage, { email: 'ops@example.com', password });
 * await addProjectOwner(storage, projectId, owner.id);
 */
export async function createOwner(
  storage: Storage,
  input: { email: string; password: string },
): Promise<ServerUserWire> {
  // A dashboard owner's password follows the rules of a password its user chooses.
  checkPasswordRequirements(input.password);
  return createUser(storage, internalProjectId, {
    primary_email: input.email,
    primary_email_auth_enabled: true,
    primary_email_verified: true,
    password: input.password,
  });
}

/**
 * The internal-project user who signs in with `email` (case-insensitive), or null.
 *
 * @example
 * const owner = await findOwner(storage, 'ops@example.com');
 * if (owner) await addProjectOwner(storage, projectId, owner.id);
 */
export async function findOwner(storage: Storage, email: string): Promise<ServerUserWire | null> {
  const row = await attachSelectedTeam(
    dbOf(storage),
    await findUserByAuthEmail(dbOf(storage), internalProjectId, email),
  );
  return row ? serverUserView(row) : null;
}

/**
 * A page of a project's users in sign-up order (server view, as `GET /users`
 * answers it), and the cursor of the next page.
 *
 * @example
 * let page = await listUsers(storage, projectId, { limit: 50 });
 * while (page.nextCursor) page = await listUsers(storage, projectId, { limit: 50, cursor: page.nextCursor });
 */
export async function listUsers(
  storage: Storage,
  projectId: string,
  options: { limit?: number; cursor?: string | null; desc?: boolean; query?: string | null } = {},
): Promise<{ items: ServerUserWire[]; nextCursor: string | null }> {
  const page = await listUserPageOf(dbOf(storage), projectId, {
    limit: options.limit ?? 100,
    cursor: options.cursor ?? null,
    desc: options.desc ?? false,
    query: options.query?.trim() || null,
    teamId: null,
  });
  return { items: page.items.map(serverUserView), nextCursor: page.nextCursor };
}

/**
 * Creates a user of a project (fields and rules as `POST /users`: a password
 * has no minimum length), answering its server view. Refusals are known
 * errors (USER_EMAIL_ALREADY_EXISTS, PASSWORD_TOO_LONG, SCHEMA_ERROR...).
 *
 * @example
 * await createUser(storage, projectId, { primary_email: 'ada@example.com', password: 'correct-horse-1', primary_email_auth_enabled: true });
 */
export async function createUser(storage: Storage, projectId: string, input: CreateUserInput): Promise<ServerUserWire> {
  const { totp_secret_base64: _disabled, ...checked } = validate(createUserBody, input);
  const created = await createUserAction(operator(storage, projectId), checked, new PasswordHasher());
  return serverUserView((await attachSelectedTeam(dbOf(storage), created))!);
}

/** The context of an action the operator runs on `storage` in `projectId`. */
function operator(storage: Storage, projectId: string, clock?: Clock): ActionContext {
  return operatorContext(dbOf(storage), changeFeedOf(storage), projectId, clock);
}

/** What `importUsers` takes besides the records. */
export interface ImportUsersOptions extends SecretOption {
  /** Check every record against the project, write nothing. */
  dryRun?: boolean;
  /** Records per transaction (default 500). */
  batchSize?: number;
  /** Each record skipped (with its reason) or imported with a warning. */
  onNotice?: (notice: ImportNotice) => void;
  /** The counts after each batch is committed: `last_line` is where a resumed run starts after. */
  onBatch?: (counts: ImportCounts) => void;
}

/**
 * Imports users and teams of the generic format into a project, a batch per
 * transaction (see `import/import-users.ts`): password hashes stored as given
 * and re-hashed at the first sign-in, source ids kept as external ids (a
 * record whose external id exists is left alone, so a run may be repeated or
 * resumed). TOTP secrets need the service `secret` to be sealed. Answers the counts.
 *
 * @example
 * const counts = await importUsers(storage, projectId, records, { secret, onNotice: (n) => console.log(n) });
 */
export async function importUsers(
  storage: Storage,
  projectId: string,
  items: AsyncIterable<ImportItem>,
  options: ImportUsersOptions = {},
): Promise<ImportCounts> {
  const project = await findProject(dbOf(storage), projectId);
  if (!project) throw new Error(`no project ${projectId}`);
  return importRecords(dbOf(storage), items, {
    projectId,
    totpSealer: sealerFor(options),
    ...(options.dryRun !== undefined ? { dryRun: options.dryRun } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(options.onBatch ? { onBatch: options.onBatch } : {}),
  });
}

/**
 * A project's teams, then its users, as records of the generic format
 * `importUsers` reads back (password hashes included). TOTP secrets are
 * opened and exported only when `includeSecrets` and the service `secret` are given.
 *
 * @example
 * for await (const record of exportUsers(storage, projectId)) process.stdout.write(`${JSON.stringify(record)}\n`);
 */
export function exportUsers(
  storage: Storage,
  projectId: string,
  options: SecretOption & { includeSecrets?: boolean } = {},
): AsyncIterable<ImportRecord> {
  return exportRecords(dbOf(storage), projectId, { totpSealer: options.includeSecrets ? sealerFor(options) : null });
}

/** A record as `checkImportRecord` finds it: refused with the reason, or what to write. */
export type CheckedImportRecord =
  | { refused: { reason: SkipReason; message: string } }
  | {
      refused: null;
      /** A user's addresses, the primary first, each once. */
      emails: { address: string; verified: boolean; primary: boolean; used_for_auth: boolean }[];
      /** A user's TOTP secret as the API takes it (`totp_secret_base64`). */
      totpSecretBase64: string | null;
      warnings: string[];
    };

/**
 * The checks `importUsers` runs on each record before writing it (addresses,
 * hash kind and cost, sizes), for writers that import through the HTTP API
 * (`latchkey import --api-url`), so both refuse the same records alike.
 */
export function checkImportRecord(record: ImportRecord): CheckedImportRecord {
  try {
    if (record.type === 'team' || record.type === 'permission') {
      if (record.type === 'team') checkTeam(record);
      else checkPermission(record);
      return { refused: null, emails: [], totpSecretBase64: null, warnings: [] };
    }
    const checked = checkUser(record);
    return {
      refused: null,
      emails: checked.emails,
      totpSecretBase64: checked.totpSecretBase64,
      warnings: checked.warnings,
    };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { refused: { reason: error.reason, message: error.message } };
  }
}
