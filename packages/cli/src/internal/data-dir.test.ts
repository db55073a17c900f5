import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDataDir, loadOrCreateSecret, lockDataDir, readDevProject, writeDevProject } from './data-dir.js';
import { CliError } from './errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-data-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureDataDir', () => {
  it('creates the directory with a .gitignore that ignores everything in it, and keeps one already there', async () => {
    const data = join(dir, '.latchkey');
    await ensureDataDir(data);
    expect(statSync(data).isDirectory()).toBe(true);
    const lines = readFileSync(join(data, '.gitignore'), 'utf8').split('\n');
    expect(lines).toContain('*');
    writeFileSync(join(data, '.gitignore'), '*\n!keep-me\n');
    await ensureDataDir(data);
    expect(readFileSync(join(data, '.gitignore'), 'utf8')).toBe('*\n!keep-me\n');
  });

  it('keeps the secret out of the repository the directory sits in', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(dir, 'app.js'), '');
    const data = join(dir, '.latchkey');
    await ensureDataDir(data);
    await loadOrCreateSecret(data, undefined);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('?? app.js\n');
  });
});

describe('loadOrCreateSecret', () => {
  it('generates a secret once, keeps it with mode 0600 and returns it again', async () => {
    const secret = await loadOrCreateSecret(dir, undefined);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateSecret(dir, undefined)).toBe(secret);
  });

  it('prefers LATCHKEY_SECRET and writes nothing', async () => {
    const fromEnv = 's'.repeat(32);
    expect(await loadOrCreateSecret(dir, fromEnv)).toBe(fromEnv);
    expect(() => statSync(join(dir, 'secret'))).toThrow();
  });

  it('refuses a secret shorter than 32 characters', async () => {
    await expect(loadOrCreateSecret(dir, 'too short')).rejects.toThrow(/too short/);
  });
});

describe('dev-project.json', () => {
  const project = {
    projectId: '5b0e6c1e-0000-4000-8000-000000000000',
    publishableClientKey: 'pck_a',
    secretServerKey: 'ssk_b',
    superSecretAdminKey: 'sak_c',
  };

  it('round-trips the keys through a file with mode 0600', async () => {
    await writeDevProject(dir, project);
    expect(statSync(join(dir, 'dev-project.json')).mode & 0o777).toBe(0o600);
    expect(await readDevProject(dir)).toEqual(project);
    expect(JSON.parse(readFileSync(join(dir, 'dev-project.json'), 'utf8')).note).toMatch(/Development only/);
  });

  it('keeps the owner beside the keys, and reads a file written before owners as keys only', async () => {
    const owner = {
      ownerEmail: 'owner@latchkey.localhost',
      ownerPassword: 'pw',
      internalPublishableClientKey: 'pck_i',
    };
    await writeDevProject(dir, { ...project, ...owner });
    expect(await readDevProject(dir)).toEqual({ ...project, ...owner });
    writeFileSync(join(dir, 'dev-project.json'), JSON.stringify({ ...project, ownerEmail: 'half@x.y' }));
    expect(await readDevProject(dir)).toEqual(project);
  });

  it('is undefined when missing and a clear error when damaged', async () => {
    expect(await readDevProject(dir)).toBeUndefined();
    writeFileSync(join(dir, 'dev-project.json'), '{"projectId": "x"}');
    await expect(readDevProject(dir)).rejects.toThrow(CliError);
    writeFileSync(join(dir, 'dev-project.json'), 'not json');
    await expect(readDevProject(dir)).rejects.toThrow(/not valid JSON/);
  });
});

describe('lockDataDir', () => {
  it('refuses a directory locked by a live process and takes over a stale lock', async () => {
    writeFileSync(join(dir, 'latchkey.lock'), String(process.ppid));
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by another latchkey process/);

    writeFileSync(join(dir, 'latchkey.lock'), '999999999');
    const lock = await lockDataDir(dir);
    expect(readFileSync(join(dir, 'latchkey.lock'), 'utf8')).toBe(String(process.pid));
    await lock.release();
    expect(() => statSync(join(dir, 'latchkey.lock'))).toThrow();
  });
});
