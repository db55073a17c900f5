/**
 * `latchkey import` and `latchkey export` as users run them (the built CLI) on
 * the data directory of a stopped `latchkey dev`: the report names each bad
 * line; a dry run writes nothing; a second run finds everyone there; an
 * unreadable file refuses the run; the export reads back into a second data
 * directory, where every user signs in over HTTP with the old password.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo } from './internal/format.js';
import { ensureBuilt, runCli, runToEnd, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-cli-import-'));
const from = join(scratch, 'from');
const to = join(scratch, 'to');
const password = 'old-password-1';
const hash = bcrypt.hashSync(password, 4);

async function devOnce(dataDir: string): Promise<DevInfo> {
  const dev = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
  const info = JSON.parse((await dev.firstLine()).line) as DevInfo;
  await dev.stop();
  return info;
}

function user(id: string, address: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    type: 'user',
    id,
    emails: [{ address, verified: true, primary: true, used_for_auth: true }],
    password_hash: hash,
    teams: [{ team_id: 't1', permissions: ['admin'] }],
    ...extra,
  });
}

const file = join(scratch, 'users.jsonl');
writeFileSync(
  file,
  [
    JSON.stringify({ type: 'team', id: 't1', display_name: 'Imported team' }),
    user('u1', 'one@import.test'),
    '{not json',
    user('u2', 'two@import.test', { password_hash: `$2b$31$${'a'.repeat(53)}` }),
    user('u3', 'three@import.test', { favourite_colour: 'blue' }),
    user('u4', 'ONE@import.test'),
    user('u5', 'five@import.test'),
    '',
  ].join('\n'),
);

beforeAll(async () => {
  ensureBuilt();
  await devOnce(from);
}, 180_000);
afterAll(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

describe('latchkey import and export', () => {
  it('a dry run reports every bad line and writes nothing', async () => {
    const dry = await runToEnd(['import', '--from', 'latchkey', file, '--data-dir', from, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const skipped = lines.filter((line) => line.type === 'skipped').map((line) => [line.line, line.reason]);
    expect(skipped).toEqual([
      [3, 'malformed'],
      [4, 'unsupported_hash'],
      [5, 'malformed'],
      [6, 'duplicate_email'],
    ]);
    expect(dry.stdout).not.toContain('$2b$');
    expect(lines.at(-1)).toMatchObject({ type: 'report', dry_run: true, users_imported: 2, teams_imported: 1 });
    const list = await runToEnd(['users', 'list', '--data-dir', from, '--json']);
    expect(JSON.parse(list.stdout).items).toEqual([]);
  }, 60_000);

  it('imports, and a second run finds everyone there', async () => {
    const first = await runToEnd(['import', '--from', 'latchkey', file, '--data-dir', from]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('line 6: skipped (duplicate email)');
    expect(first.stdout).toMatch(/Imported 2 users and 1 teams/);
    const second = await runToEnd(['import', '--from', 'latchkey', file, '--data-dir', from, '--json']);
    expect(JSON.parse(second.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      users_imported: 0,
      users_existing: 2,
      teams_existing: 1,
    });
  }, 60_000);

  it('an import killed midway continues with --resume, and nobody is there twice', async () => {
    const resumeDir = join(scratch, 'resume');
    await devOnce(resumeDir);
    const count = 1_500;
    const big = join(scratch, 'many.jsonl');
    const lines = Array.from({ length: count }, (_, n) => user(`r${n}`, `r${n}@resume.test`, { teams: [] }));
    writeFileSync(big, `${lines.join('\n')}\n`);
    const first = runCli(['import', '--from', 'latchkey', big, '--data-dir', resumeDir, '--json']);
    // Two batches committed (the state file is written after each): then the process dies without a word.
    await first.waitForStdout('"type":"progress"');
    const afterFirst = first.stdout().length;
    await new Promise<void>((resolve, reject) => {
      const check = () => (first.stdout().indexOf('"type":"progress"', afterFirst) >= 0 ? resolve() : undefined);
      first.child.stdout!.on('data', check);
      void first.exited.then(() => reject(new Error(`the import ended before it was killed: ${first.stdout()}`)));
      check();
    });
    await first.stop('SIGKILL');
    expect(existsSync(`${big}.latchkey-import.json`)).toBe(true);

    const resumed = await runToEnd([
      'import',
      '--from',
      'latchkey',
      big,
      '--data-dir',
      resumeDir,
      '--resume',
      '--json',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toContain('no interrupted run');
    const report = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    expect(report.users_imported).toBeGreaterThan(0);
    expect(report.users_imported).toBeLessThan(count);
    expect(report.skipped).toBe(0);
    expect(existsSync(`${big}.latchkey-import.json`)).toBe(false);

    const exported = await runToEnd(['export', '--data-dir', resumeDir]);
    const ids = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; emails?: { address: string }[] })
      .filter((record) => record.type === 'user')
      .map((record) => record.emails![0]!.address);
    expect(ids.length).toBe(count);
    expect(new Set(ids).size).toBe(count);
  }, 180_000);

  it('refuses a file it cannot read', async () => {
    const missing = await runToEnd(['import', '--from', 'latchkey', join(scratch, 'nope.jsonl'), '--data-dir', from]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
  });

  it('exports, and the export imported into another instance signs its users in over HTTP', async () => {
    const exported = await runToEnd(['export', '--data-dir', from]);
    expect(exported.code, exported.stderr).toBe(0);
    const exportFile = join(scratch, 'export.jsonl');
    writeFileSync(exportFile, exported.stdout);
    await devOnce(to);
    const imported = await runToEnd(['import', '--from', 'latchkey', exportFile, '--data-dir', to, '--json']);
    expect(JSON.parse(imported.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      users_imported: 2,
      teams_imported: 1,
      skipped: 0,
    });
    const dev = runCli(['dev', '--json', '--port', '0', '--data-dir', to]);
    const info = JSON.parse((await dev.firstLine()).line) as DevInfo;
    for (const email of ['one@import.test', 'five@import.test']) {
      const signIn = await fetch(`${info.apiUrl}/api/v1/auth/password/sign-in`, {
        method: 'POST',
        headers: {
          'x-stack-project-id': info.projectId,
          'x-stack-access-type': 'client',
          'x-stack-publishable-client-key': info.publishableClientKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email, password }),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
    }
    const teams = await fetch(`${info.apiUrl}/api/v1/teams`, {
      headers: {
        'x-stack-project-id': info.projectId,
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': info.superSecretAdminKey,
      },
    });
    expect(((await teams.json()) as { items: { display_name: string }[] }).items.map((t) => t.display_name)).toEqual([
      'Imported team',
    ]);
    await dev.stop();
  }, 180_000);
});
