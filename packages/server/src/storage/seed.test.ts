/**
 * `unpackSeed`: a new data directory is the whole seed or nothing, a
 * directory holding files is left alone, the seed may hold plain files and
 * directories only, and files come out byte for byte. `buildSeed`: a
 * database shut down cleanly.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSeed } from '../testing/seed-cache.js';
import { migrate } from './migrate.js';
import { dbOf, openPGlite } from './open-storage.js';
import { buildSeed, unpackSeed } from './seed.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'latchkey-seed-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('unpackSeed', () => {
  it('makes a data directory that PGlite opens as a migrated database, with nothing left beside it', async () => {
    const dataDir = join(scratch, 'fresh');
    expect(await unpackSeed(await testSeed(), join(dataDir, 'pglite'))).toBe(true);
    expect(await readdir(dataDir)).toEqual(['pglite']);
    const storage = await openPGlite({ dataDir, schema: 'public', seed: null });
    try {
      expect(await migrate(dbOf(storage), 'public')).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('leaves a directory that holds files already as it is', async () => {
    const dir = join(scratch, 'taken');
    await mkdir(dir);
    await writeFile(join(dir, 'note'), 'mine');
    expect(await unpackSeed(await testSeed(), dir)).toBe(false);
    expect(await readdir(dir)).toEqual(['note']);
    expect(await readFile(join(dir, 'note'), 'utf8')).toBe('mine');
  });

  it('leaves no directory, whole or half, when the seed cannot be read', async () => {
    const parent = join(scratch, 'unreadable');
    await expect(unpackSeed(new Blob(['not gzip']), join(parent, 'pglite'))).rejects.toThrow();
    expect(existsSync(join(parent, 'pglite'))).toBe(false);
  });

  it('refuses a seed entry that is not a plain file or directory, and leaves nothing behind', async () => {
    const parent = join(scratch, 'symlink');
    await mkdir(parent);
    const tar = Buffer.concat([
      tarHeader('PG_VERSION', '0', 3),
      padded(Buffer.from('18\n')),
      tarHeader('evil', '2', 0),
    ]);
    const seed = new Blob([gzipSync(Buffer.concat([tar, Buffer.alloc(1024)]))]);
    await expect(unpackSeed(seed, join(parent, 'pglite'))).rejects.toThrow(/not a plain file or directory: evil/);
    expect(await readdir(parent)).toEqual([]);
  });
});

describe('buildSeed', () => {
  it('makes a database shut down cleanly, so that one made from it starts without crash recovery', async () => {
    const dir = join(scratch, 'built', 'pglite');
    expect(await unpackSeed((await buildSeed()).dump, dir)).toBe(true);
    // pg_control: system identifier (8 bytes), two versions (4 each), then the state; 1 is DB_SHUTDOWNED.
    const control = await readFile(join(dir, 'global', 'pg_control'));
    expect(control.readInt32LE(16)).toBe(1);
  }, 30_000);
});

describe('unpackSeed, trailing zeros', () => {
  it('gives a file ending in a long run of zeros (written as a hole) back byte for byte', async () => {
    const parent = join(scratch, 'zeros');
    const data = Buffer.concat([
      Buffer.from('start'),
      Buffer.alloc(300 * 1024),
      Buffer.from('end'),
      Buffer.alloc(200_000),
    ]);
    const allZeros = Buffer.alloc(70_000);
    const tar = Buffer.concat([
      tarHeader('PG_VERSION', '0', data.length),
      padded(data),
      tarHeader('zeros', '0', allZeros.length),
      padded(allZeros),
    ]);
    const seed = new Blob([gzipSync(Buffer.concat([tar, Buffer.alloc(1024)]))]);
    expect(await unpackSeed(seed, join(parent, 'pglite'))).toBe(true);
    expect((await readFile(join(parent, 'pglite', 'PG_VERSION'))).equals(data)).toBe(true);
    expect((await readFile(join(parent, 'pglite', 'zeros'))).equals(allZeros)).toBe(true);
    expect((await stat(join(parent, 'pglite', 'zeros'))).mode & 0o777).toBe(0o600);
  });
});

/** A ustar header for `name` of `type` ('0' file, '5' directory, '2' symlink) and `size` bytes. */
function tarHeader(name: string, type: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000600\0', 100, 'latin1');
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write(type, 156, 'latin1');
  header.write('ustar\x0000', 257, 'latin1');
  return header;
}

function padded(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}
