/**
 * The PGlite seed: a dump of an empty, migrated database. Creating a PGlite
 * database runs initdb (seconds); loading a dump takes a fraction of that. The
 * build writes `dist/pglite-seed.tar.gz` and its manifest; `openStorage` uses
 * them for a new database when every migration they hold is still current.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrate, migrationChecksum } from './migrate.js';
import { migrations } from './migrations/index.js';
import { pgliteDialect } from './pglite-driver.js';
import { pgliteExtensions } from './pglite-extensions.js';
import type { Database } from './schema.js';

const dumpFile = 'pglite-seed.tar.gz';
const manifestFile = 'pglite-seed.json';

interface SeedManifest {
  migrations: { id: string; checksum: string }[];
}

/** Where a built seed may be: `dist/` seen from `dist/storage/` (built) or from `src/storage/` (sources). */
export function builtSeedDirs(): string[] {
  return [fileURLToPath(new URL('..', import.meta.url)), fileURLToPath(new URL('../../dist', import.meta.url))];
}

/** Creates a migrated in-memory database and dumps it (gzip). */
export async function buildSeed(): Promise<{ dump: Blob; manifest: SeedManifest }> {
  const pglite = new PGlite({ extensions: pgliteExtensions });
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  try {
    await migrate(db, 'public');
    // Without it, each database made from the seed first replays the migrations' WAL (about 0.1 s).
    await pglite.exec('checkpoint');
    const dump = await pglite.dumpDataDir('gzip');
    return { dump, manifest: { migrations: migrations.map((m) => ({ id: m.id, checksum: migrationChecksum(m) })) } };
  } finally {
    await db.destroy();
  }
}

/** Builds a seed and writes it into `dir` (atomically, so readers never see half a file). */
export async function writeSeed(dir: string): Promise<{ path: string; bytes: number }> {
  const { dump, manifest } = await buildSeed();
  await mkdir(dir, { recursive: true });
  const bytes = Buffer.from(await dump.arrayBuffer());
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await writeFile(join(dir, dumpFile + suffix), bytes);
  await writeFile(join(dir, manifestFile + suffix), JSON.stringify(manifest));
  await rename(join(dir, dumpFile + suffix), join(dir, dumpFile));
  await rename(join(dir, manifestFile + suffix), join(dir, manifestFile));
  return { path: join(dir, dumpFile), bytes: bytes.length };
}

/** The seed in `dir` when present and every migration it holds is unchanged; otherwise null. */
export async function readSeed(dir: string): Promise<Blob | null> {
  const dumpPath = join(dir, dumpFile);
  const manifestPath = join(dir, manifestFile);
  if (!existsSync(dumpPath) || !existsSync(manifestPath)) return null;
  try {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as SeedManifest;
    const current = new Map(migrations.map((m) => [m.id, migrationChecksum(m)]));
    if (!manifest.migrations.every((m) => current.get(m.id) === m.checksum)) return null;
    return new Blob([await readFile(dumpPath)]);
  } catch {
    return null;
  }
}

/** The first usable built seed, or null. */
export async function findBuiltSeed(): Promise<Blob | null> {
  for (const dir of builtSeedDirs()) {
    const seed = await readSeed(dir);
    if (seed) return seed;
  }
  return null;
}

/**
 * Unpacks a seed as the new PGlite data directory `dir`, and returns true; or
 * returns false, leaving everything as it is, when `dir` holds files already
 * (PGlite's own `loadDataDir` then loads the seed over them, as before). It
 * is unpacked beside `dir` and renamed into place once whole, so an
 * interrupted start leaves no half database that the next start would take
 * for a whole one. Several times faster than `loadDataDir`, which writes each
 * file through PGlite's WebAssembly file system (0.5 s or more of a first
 * `latchkey dev`).
 */
export async function unpackSeed(seed: Blob, dir: string): Promise<boolean> {
  if ((await readdir(dir).catch(() => [])).length > 0) return false;
  // One large output chunk: with the default 16 KiB the 40 MB take twice as long.
  const tar = await promisify(gunzip)(Buffer.from(await seed.arrayBuffer()), { chunkSize: 1 << 20 });
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  const temporary = `${dir}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeTarEntries(tar, temporary);
    await rm(dir, { recursive: true, force: true }); // empty (checked above); rename cannot replace it everywhere
    await rename(temporary, dir);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
  return true;
}

/** A tar archive's entries (PGlite writes ustar: regular files and directories), written under `root`. */
async function writeTarEntries(tar: Buffer, root: string): Promise<void> {
  const dirs = new Set([root]);
  const files: { path: string; data: Buffer }[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header[0] === 0) break; // the end-of-archive blocks
    const prefix = header.toString('latin1', 257, 262) === 'ustar' ? tarField(header, 345, 155) : '';
    const name = prefix ? `${prefix}/${tarField(header, 0, 100)}` : tarField(header, 0, 100);
    const size = Number.parseInt(tarField(header, 124, 12).trim() || '0', 8);
    const type = header[156] === 0 ? '0' : String.fromCharCode(header[156]!);
    const path = join(root, posix.normalize(`/${name}`));
    if (!Number.isSafeInteger(size) || (type !== '0' && type !== '5')) {
      throw new Error(`the PGlite seed has an entry that is not a plain file or directory: ${name}`);
    }
    offset += 512;
    if (type === '5') dirs.add(path);
    else {
      dirs.add(dirname(path));
      files.push({ path, data: tar.subarray(offset, offset + size) });
    }
    offset += Math.ceil(size / 512) * 512;
  }
  for (const dir of dirs) await mkdir(dir, { recursive: true, mode: 0o700 });
  // A few writes in flight keep the thread pool busy without opening a thousand files at once.
  let next = 0;
  const writer = async () => {
    for (let file = files[next++]; file; file = files[next++]) await writeFile(file.path, file.data, { mode: 0o600 });
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

/** A NUL-terminated text field of a tar header. */
function tarField(header: Buffer, start: number, length: number): string {
  const end = header.indexOf(0, start);
  return header.toString('utf8', start, end === -1 || end > start + length ? start + length : end);
}
