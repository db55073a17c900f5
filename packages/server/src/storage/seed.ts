/**
 * The PGlite seed: a dump of an empty, migrated database. Creating a PGlite
 * database runs initdb (seconds); loading a dump takes a fraction of that. The
 * build writes `dist/pglite-seed.tar.gz` and its manifest; `openStorage` uses
 * them for a new database when every migration they hold is still current.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
