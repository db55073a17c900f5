#!/usr/bin/env node
// Writes dist/pglite-seed.tar.gz (+ pglite-seed.json): a dump of an empty,
// migrated PGlite database. `openStorage` loads it for a new data directory
// instead of running initdb. Run after `tsc -b` (it imports the built code).
//
// The seed is rebuilt only when it is stale: when its manifest's migrations
// (ids and checksums) differ from the built ones, it was made by another
// PGlite version, or made another way (`seedFormat` in storage/seed.ts).
// `--force` rebuilds it anyway.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const started = performance.now();
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const manifestPath = join(dist, 'pglite-seed.json');
const pgliteVersion = readPgliteVersion();

if (!process.argv.includes('--force') && (await seedIsCurrent())) {
  console.log('latchkey: the PGlite seed is current (migrations and PGlite unchanged)');
} else {
  const { writeSeed } = await import('../dist/storage/seed.js');
  const { path, bytes } = await writeSeed(dist);
  recordPgliteVersion();
  const ms = Math.round(performance.now() - started);
  console.log(`latchkey: wrote ${path} (${Math.round(bytes / 1024)} KiB) in ${ms} ms`);
}

/** True when the built seed holds exactly the built migrations and was made by this PGlite, the current way. */
async function seedIsCurrent() {
  if (!existsSync(join(dist, 'pglite-seed.tar.gz')) || !existsSync(manifestPath)) return false;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const { migrations } = await import('../dist/storage/migrations/index.js');
    const { migrationChecksum } = await import('../dist/storage/migrate.js');
    const { seedFormat } = await import('../dist/storage/seed.js');
    const current = migrations.map((m) => `${m.id}:${migrationChecksum(m)}`).join('\n');
    const seeded = manifest.migrations.map((m) => `${m.id}:${m.checksum}`).join('\n');
    return manifest.pglite === pgliteVersion && manifest.format === seedFormat && seeded === current;
  } catch {
    return false;
  }
}

/** Adds the PGlite version to the manifest (a dump is only read by the version that wrote it). */
function recordPgliteVersion() {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const temporary = `${manifestPath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ ...manifest, pglite: pgliteVersion }));
  renameSync(temporary, manifestPath);
}

function readPgliteVersion() {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    if (manifest.name === '@electric-sql/pglite') return manifest.version;
  }
  throw new Error('make-seed: cannot find the version of @electric-sql/pglite');
}
