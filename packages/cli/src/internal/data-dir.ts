import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, systemErrorCode } from './errors.js';

/** The dev project's plaintext keys, kept beside the embedded database for local development only. */
export interface DevProject {
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/**
 * The dev project's owner: a user of the internal project who signs in with
 * this e-mail and password (on the internal project, with its publishable
 * key); their access token is an admin access token for the dev project.
 */
export interface DevOwner {
  ownerEmail: string;
  ownerPassword: string;
  internalPublishableClientKey: string;
}

const minimumSecretLength = 32;
const secretFile = 'secret';
const devProjectFile = 'dev-project.json';
const lockFile = 'latchkey.lock';
const gitignoreFile = '.gitignore';
const gitignore = '# Written by latchkey: the master secret, keys and database here are never to be committed.\n*\n';

/**
 * Creates the data directory when missing, with a `.gitignore` of `*` in it:
 * it holds the master secret and plaintext keys, which must never be
 * committed with the project it sits in (`.latchkey/` by default). A
 * `.gitignore` already there is left as it is.
 */
export async function ensureDataDir(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(join(dataDir, gitignoreFile), gitignore, { flag: 'wx' }).catch((error: unknown) => {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    });
  } catch (error) {
    throw new CliError(`cannot create the data directory ${dataDir} (${systemErrorCode(error) ?? String(error)})`);
  }
}

/**
 * The master secret: `LATCHKEY_SECRET` when set, else the one generated on the
 * first start and kept in `<dataDir>/secret` (mode 0600). It encrypts signing
 * keys at rest, so it must stay the same for the life of the data directory.
 */
export async function loadOrCreateSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return checkSecret(fromEnv, 'LATCHKEY_SECRET');
  const path = join(dataDir, secretFile);
  const stored = await readOptional(path);
  if (stored !== undefined) return checkSecret(stored.trim(), path);
  const secret = randomBytes(32).toString('base64url');
  try {
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if (systemErrorCode(error) === 'EEXIST') return checkSecret((await readFile(path, 'utf8')).trim(), path);
    throw error;
  }
}

/** Refuses a master secret shorter than 32 characters. */
export function checkSecret(secret: string, source: string): string {
  if (secret.length < minimumSecretLength) {
    throw new CliError(`the master secret from ${source} is too short: use at least ${minimumSecretLength} characters`);
  }
  return secret;
}

/** What `dev-project.json` holds; the owner is absent in files written before owners existed. */
export type SavedDevProject = DevProject & Partial<DevOwner>;

export async function readDevProject(dataDir: string): Promise<SavedDevProject | undefined> {
  const path = join(dataDir, devProjectFile);
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON; delete the data directory to start afresh`);
  }
  if (!isDevProject(parsed)) {
    throw new CliError(`${path} lacks the dev project's id or keys; delete the data directory to start afresh`);
  }
  const { projectId, publishableClientKey, secretServerKey, superSecretAdminKey } = parsed;
  const owner = parsed as Partial<Record<keyof DevOwner, unknown>>;
  const isOwner = ownerFields.every((field) => typeof owner[field] === 'string' && owner[field] !== '');
  return {
    projectId,
    publishableClientKey,
    secretServerKey,
    superSecretAdminKey,
    ...(isOwner ? (Object.fromEntries(ownerFields.map((field) => [field, owner[field]])) as unknown as DevOwner) : {}),
  };
}

const ownerFields = ['ownerEmail', 'ownerPassword', 'internalPublishableClientKey'] as const;

function isDevProject(value: unknown): value is DevProject {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const fields = ['projectId', 'publishableClientKey', 'secretServerKey', 'superSecretAdminKey'];
  return fields.every((field) => typeof record[field] === 'string' && record[field] !== '');
}

/** Writes `dev-project.json` atomically with mode 0600. */
export async function writeDevProject(dataDir: string, project: SavedDevProject): Promise<void> {
  const path = join(dataDir, devProjectFile);
  const temporary = `${path}.${process.pid}.tmp`;
  const body = {
    note: 'Keys and owner of the local development project, kept here so `latchkey dev` can print them again. Development only.',
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    secretServerKey: project.secretServerKey,
    superSecretAdminKey: project.superSecretAdminKey,
    ...(project.ownerEmail
      ? {
          ownerEmail: project.ownerEmail,
          ownerPassword: project.ownerPassword,
          internalPublishableClientKey: project.internalPublishableClientKey,
        }
      : {}),
  };
  await writeFile(temporary, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

export function devProjectPath(dataDir: string): string {
  return join(dataDir, devProjectFile);
}

/**
 * Claims the data directory for this process. The embedded database must have
 * one writer, so a second `latchkey dev` on the same directory is refused
 * while the first runs; a lock left by a dead process is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
  const path = join(dataDir, lockFile);
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, mine, { flag: 'wx', mode: 0o600 });
      return {
        async release() {
          if ((await readOptional(path))?.trim() === mine) await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
      const holder = Number((await readOptional(path))?.trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new CliError(
          `the data directory ${dataDir} is in use by another latchkey process (pid ${holder}); stop it or pass another --data-dir`,
        );
      }
      await unlink(path).catch(() => {});
    }
  }
  throw new CliError(`cannot lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return systemErrorCode(error) === 'EPERM';
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
