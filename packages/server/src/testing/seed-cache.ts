/** The PGlite seed for test databases, built once per machine and cached in the temp directory. */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '../storage/migrations/index.js';
import { findBuiltSeed, readSeed, writeSeed } from '../storage/seed.js';

let seed: Promise<Blob> | undefined;

/**
 * A migrated PGlite dump, so each test database loads in well under a second
 * instead of running initdb: the built seed, else one cached in the temp
 * directory (keyed by the migrations), else built once and cached there.
 */
export function testSeed(): Promise<Blob> {
  seed ??= (async () => {
    const built = await findBuiltSeed();
    if (built) return built;
    const key = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
    const dir = join(tmpdir(), `latchkey-pglite-seed-${key}`);
    const cached = await readSeed(dir);
    if (cached) return cached;
    await writeSeed(dir);
    const written = await readSeed(dir);
    if (!written) throw new Error(`cannot read the PGlite seed written to ${dir}`);
    return written;
  })();
  return seed;
}
