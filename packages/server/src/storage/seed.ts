/**
 * The PGlite seed: a dump of an empty, migrated database. Creating a PGlite
 * database runs initdb (seconds); loading a dump takes a fraction of that. The
 * build writes `dist/pglite-seed.tar.gz` and its manifest; `openStorage` uses
 * them for a new database when every migration they hold is still current.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
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
  /** How the seed was made (`seedFormat`); absent in seeds made before it was recorded. */
  format?: number;
  migrations: { id: string; checksum: string }[];
}

/**
 * Raised when the way the seed is made changes, so that the build makes it
 * again although its migrations did not change. 2: a cleanly shut-down
 * database, with a fresh WAL segment.
 */
export const seedFormat = 2;

/** Where a built seed may be: `dist/` seen from `dist/storage/` (built) or from `src/storage/` (sources). */
function builtSeedDirs(): string[] {
  return [fileURLToPath(new URL('..', import.meta.url)), fileURLToPath(new URL('../../dist', import.meta.url))];
}

/**
 * Creates a migrated database and dumps it (a gzipped tar, as PGlite's
 * `dumpDataDir` writes). The database is made in a temporary directory and
 * shut down cleanly before its files are packed: a dump of a running PGlite
 * reads as a crash, so that every database made from it would first go through
 * recovery (about 0.1 s of a first `latchkey dev`). The migrations' WAL is
 * left behind first, so the seed's one WAL segment holds little more than the
 * shut-down record (and is written sparsely, see `unpackSeed`).
 */
export async function buildSeed(): Promise<{ dump: Blob; manifest: SeedManifest }> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-seed-'));
  try {
    const pglite = new PGlite({ dataDir: dir, extensions: pgliteExtensions });
    const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    try {
      await migrate(db, 'public');
      // A new WAL segment, and the old one removed at the checkpoint rather than renamed for reuse.
      await pglite.exec('set wal_recycle = off; select pg_switch_wal(); checkpoint');
    } finally {
      await db.destroy(); // closes PGlite: a clean shut-down
    }
    const dump = new Blob([await promisify(gzip)(await tarDirectory(dir))]);
    const manifest = {
      format: seedFormat,
      migrations: migrations.map((m) => ({ id: m.id, checksum: migrationChecksum(m) })),
    };
    return { dump, manifest };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A ustar archive of the directories and plain files under `root`, named `/<path from root>` as PGlite names them. */
async function tarDirectory(root: string): Promise<Buffer> {
  const blocks: Buffer[] = [];
  const add = async (dir: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      const name = `/${relative(root, path).split(sep).join('/')}`;
      const { mtimeMs } = await lstat(path);
      if (entry.isDirectory()) {
        blocks.push(tarHeader(name, '5', 0, mtimeMs));
        await add(path);
      } else if (entry.isFile()) {
        const data = await readFile(path);
        blocks.push(tarHeader(name, '0', data.length, mtimeMs), data, Buffer.alloc((512 - (data.length % 512)) % 512));
      } else {
        throw new Error(`the PGlite seed directory holds something that is not a plain file or directory: ${name}`);
      }
    }
  };
  await add(root);
  blocks.push(Buffer.alloc(1024)); // the end-of-archive blocks
  return Buffer.concat(blocks);
}

/** A ustar header: `type` '0' for a file, '5' for a directory. */
function tarHeader(name: string, type: '0' | '5', size: number, mtimeMs: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`a PGlite seed path is too long for a tar header: ${name}`);
  const header = Buffer.alloc(512);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  header.write(name, 0, 'utf8');
  header.write(octal(type === '5' ? 0o700 : 0o600, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1'); // uid
  header.write(octal(0, 8), 116, 'latin1'); // gid
  header.write(octal(size, 12), 124, 'latin1');
  header.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'latin1');
  header.write(type, 156, 'latin1');
  header.write('ustar\x0000', 257, 'latin1');
  header.write('        ', 148, 'latin1'); // the checksum counts its own field as spaces
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
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
 * `latchkey dev`). Long runs of zeros at the end of a file are not written
 * but left as a hole: 16 of the seed's 41 MB, nearly all of the WAL segment.
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
    for (let file = files[next++]; file; file = files[next++]) await writeSparsely(file.path, file.data);
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

/** Zeros at the end of a file worth leaving as a hole rather than writing. */
const holeBytes = 64 * 1024;

/**
 * Writes `data` to a new file at `path`; a long run of zeros at its end (most
 * of the 16 MB WAL segment) is left to the file's length, which reads back as
 * the same zeros without writing them.
 */
async function writeSparsely(path: string, data: Buffer): Promise<void> {
  const end = data.length < holeBytes ? data.length : endOfData(data);
  if (data.length - end < holeBytes) return writeFile(path, data, { mode: 0o600 });
  const file = await open(path, 'w', 0o600);
  try {
    if (end > 0) await file.write(data, 0, end, 0);
    await file.truncate(data.length);
  } finally {
    await file.close();
  }
}

const zeros = Buffer.alloc(holeBytes);

/** The length of `data` without its trailing zeros (compared a block at a time, then byte by byte). */
function endOfData(data: Buffer): number {
  let end = data.length;
  while (end >= holeBytes && data.subarray(end - holeBytes, end).equals(zeros)) end -= holeBytes;
  while (end > 0 && data[end - 1] === 0) end--;
  return end;
}

/** A NUL-terminated text field of a tar header. */
function tarField(header: Buffer, start: number, length: number): string {
  const end = header.indexOf(0, start);
  return header.toString('utf8', start, end === -1 || end > start + length ? start + length : end);
}
