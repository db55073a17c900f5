/**
 * A throwaway PostgreSQL cluster for tests that must stop and start the
 * database itself (the database-fault tests): `initdb` into a fresh
 * temporary directory, `postgres` on a free loopback port with trust auth, and
 * `stop` (fast or immediate, i.e. a crash), `start` (same data, same port) and
 * `destroy`. It needs the PostgreSQL server binaries; without them, or when
 * they cannot run here, it reports why instead, and the test skips.
 *
 * initdb and postgres refuse to run as root: under root (CI, containers) they
 * run as the `postgres` OS user, which then owns the temporary directory.
 *
 * @example
 * const started = await startPgCluster();
 * if (!started.available) console.warn(`skipped: ${started.reason}`);
 * else {
 *   const { cluster } = started;
 *   await cluster.stop({ mode: 'immediate' });
 *   await cluster.start();
 *   await cluster.destroy();
 * }
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isPostgresReachable } from '../testing/postgres.js';

/** A running (or stopped) throwaway cluster. */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/latchkey` (trust auth: no password). */
  readonly url: string;
  readonly port: number;
  /** True from `start` until `stop`. */
  readonly running: boolean;
  /**
   * Stops the server and resolves once its postmaster exited. `fast` (the
   * default) ends sessions and shuts down cleanly; `immediate` kills them
   * without a checkpoint, as a crash would, so the next start recovers.
   */
  stop(options?: { mode?: 'fast' | 'immediate' }): Promise<void>;
  /** Starts the server again on the same data and port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (immediate) and deletes its directory. Safe to call twice. */
  destroy(): Promise<void>;
}

export type PgClusterStart = { available: true; cluster: PgCluster } | { available: false; reason: string };

/** The database the cluster creates for the test. */
const databaseName = 'latchkey';
const readyLimitMs = 30_000;

/**
 * Starts a throwaway cluster, or says why it cannot (no server binaries, no
 * `postgres` user to run them under root, or they fail to run here).
 */
export async function startPgCluster(): Promise<PgClusterStart> {
  const bin = findServerBinaries();
  if (!bin) return { available: false, reason: 'no PostgreSQL server binaries (initdb, postgres) found' };
  const owner = process.getuid?.() === 0 ? postgresUser() : null;
  if (owner === undefined) return { available: false, reason: 'running as root and there is no postgres user' };
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-pg-'));
  try {
    if (owner) await chown(dir, owner.uid, owner.gid);
    const args = ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'];
    await run(join(bin, 'initdb'), args, dir, owner);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return { available: false, reason: `initdb failed: ${firstLine(error)}` };
  }
  const cluster = new Cluster(bin, dir, owner);
  try {
    await cluster.firstStart();
    return { available: true, cluster };
  } catch (error) {
    await cluster.destroy();
    return { available: false, reason: `postgres did not start: ${firstLine(error)}` };
  }
}

interface Owner {
  uid: number;
  gid: number;
}

class Cluster implements PgCluster {
  port = 0;
  #child: ChildProcess | null = null;
  #exited: Promise<void> = Promise.resolve();
  #log = '';
  #destroyed = false;
  readonly #killOnExit = () => this.#child?.kill('SIGQUIT');

  constructor(
    readonly bin: string,
    readonly dir: string,
    readonly owner: Owner | null,
  ) {}

  get url(): string {
    return this.#urlOf(databaseName);
  }

  get running(): boolean {
    return this.#child !== null;
  }

  /** Picks a free port (another process may take it before postgres binds: then another one). */
  async firstStart(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.port = await freePort();
      try {
        await this.start();
        break;
      } catch (error) {
        if (attempt >= 3 || !/could not bind|address already in use/i.test(this.#log)) throw error;
      }
    }
    const admin = new pg.Client({ connectionString: this.#urlOf('postgres') });
    await admin.connect();
    try {
      await admin.query(`create database ${databaseName}`);
    } finally {
      await admin.end();
    }
  }

  async start(): Promise<void> {
    if (this.#destroyed) throw new Error('the cluster was destroyed');
    if (this.#child) return;
    this.#log = '';
    // fsync off for speed; synchronous_commit stays on, so an answered commit is in the WAL
    // (the OS keeps it through a crash of the server) and an immediate stop loses nothing committed.
    const settings = ['fsync=off', 'full_page_writes=off', 'shared_buffers=32MB', 'max_connections=60'];
    const args = ['-D', join(this.dir, 'data'), '-p', String(this.port), '-h', '127.0.0.1', '-k', this.dir];
    const child = spawn(join(this.bin, 'postgres'), [...args, ...settings.flatMap((s) => ['-c', s])], {
      cwd: this.dir,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(this.owner ?? {}),
    });
    // Kept (the tail only) to say why it failed; read always, so a full pipe never blocks the server.
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#log = (this.#log + chunk.toString()).slice(-4000);
    });
    let exited = false;
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        exited = true;
        if (this.#child === child) this.#child = null;
        process.off('exit', this.#killOnExit);
        resolve();
      });
      child.once('error', () => {
        exited = true;
        if (this.#child === child) this.#child = null;
        resolve();
      });
    });
    this.#child = child;
    process.on('exit', this.#killOnExit); // a test process that dies leaves no server behind
    const started = performance.now();
    while (!(await isPostgresReachable(this.#urlOf('postgres')))) {
      if (exited) throw new Error(`postgres exited: ${this.#log.trim().split('\n').at(-1) ?? ''}`);
      if (performance.now() - started > readyLimitMs) {
        await this.stop({ mode: 'immediate' });
        throw new Error(`postgres did not accept connections within ${readyLimitMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(options: { mode?: 'fast' | 'immediate' } = {}): Promise<void> {
    // SIGINT is pg_ctl's "fast" shutdown, SIGQUIT its "immediate" one.
    this.#child?.kill(options.mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
    await this.#exited;
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    await this.stop({ mode: 'immediate' });
    await rm(this.dir, { recursive: true, force: true });
  }

  #urlOf(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }
}

/** The directory holding `initdb` and `postgres`: `pg_config --bindir`, else the newest /usr/lib/postgresql/<v>/bin. */
function findServerBinaries(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: 'pipe' }).trim());
  } catch {}
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) ?? null;
}

/** The ids of the `postgres` OS user, or undefined when there is none. */
function postgresUser(): Owner | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }));
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

function run(file: string, args: string[], cwd: string, owner: Owner | null) {
  return new Promise<void>((resolve, reject) => {
    execFile(file, args, { cwd, env: { ...process.env, LC_ALL: 'C' }, ...(owner ?? {}) }, (error, _stdout, stderr) =>
      error ? reject(new Error(stderr.trim() || error.message)) : resolve(),
    );
  });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** A port of 127.0.0.1 free a moment ago (the caller retries when another process took it since). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
