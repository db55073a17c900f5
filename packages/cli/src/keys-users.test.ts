/**
 * `latchkey keys` and `latchkey users` as users run them (the built CLI):
 * over HTTP against a running `latchkey dev`, and on its data directory once
 * it stopped; and the dev project's owner account `latchkey dev` creates.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo as DevJson } from './internal/format.js';
import { type CliProcess, ensureBuilt, overHttpArgs, runCli, runToEnd, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-cli-admin-'));
const dataDir = join(scratch, 'dev');
let devProcess: CliProcess;
let dev: DevJson;

beforeAll(async () => {
  ensureBuilt();
  devProcess = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
  dev = JSON.parse((await devProcess.firstLine()).line) as DevJson;
}, 180_000);
afterAll(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

const run = runToEnd;

const overHttp = () => overHttpArgs(dev);

async function projectAs(header: string, key: string, accessType: string) {
  const response = await fetch(`${dev.apiUrl}/api/v1/projects/current`, {
    headers: { 'x-stack-project-id': dev.projectId, 'x-stack-access-type': accessType, [header]: key },
  });
  return { status: response.status, code: response.headers.get('x-stack-known-error') };
}

describe('the dev project owner', () => {
  it('signs in on the internal project, and their token is an admin access token for the dev project', async () => {
    expect(dev.ownerEmail).toMatch(/@latchkey\.localhost$/);
    expect(dev.ownerPassword.length).toBeGreaterThanOrEqual(20);
    expect(dev.internalPublishableClientKey).toMatch(/^pck_/);
    const signIn = await fetch(`${dev.apiUrl}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': dev.internalPublishableClientKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: dev.ownerEmail, password: dev.ownerPassword }),
    });
    expect(signIn.status).toBe(200);
    const { access_token } = (await signIn.json()) as { access_token: string };
    const asOwner = await fetch(`${dev.apiUrl}/api/v1/projects/current`, {
      headers: {
        'x-stack-project-id': dev.projectId,
        'x-stack-access-type': 'admin',
        'x-stack-admin-access-token': access_token,
      },
    });
    expect(asOwner.status).toBe(200);
    expect(((await asOwner.json()) as { id: string; user_count: number }).id).toBe(dev.projectId);
    const owned = await fetch(`${dev.apiUrl}/api/v1/internal/projects`, {
      headers: {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': dev.internalPublishableClientKey,
        'x-stack-access-token': access_token,
      },
    });
    expect(((await owned.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([dev.projectId]);
  });

  it('is kept in dev-project.json (mode 0600) beside the keys', () => {
    const path = join(dataDir, 'dev-project.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      ownerEmail: dev.ownerEmail,
      ownerPassword: dev.ownerPassword,
      internalPublishableClientKey: dev.internalPublishableClientKey,
    });
  });
});

describe('over HTTP (--api-url) against a running service', () => {
  let created: { id: string; secret_server_key: string; publishable_client_key?: string };

  it('keys create --server --json answers the new set with its key in full, and the key works', async () => {
    const result = await run(['keys', 'create', '--server', '--description', 'CI', '--json', ...overHttp()]);
    expect(result.code, result.stderr).toBe(0);
    created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ description: 'CI', secret_server_key: expect.stringMatching(/^ssk_/) });
    expect(created.publishable_client_key).toBeUndefined();
    expect(await projectAs('x-stack-secret-server-key', created.secret_server_key, 'server')).toEqual({
      status: 200,
      code: null,
    });
  });

  it('keys list shows every set with the last four characters only', async () => {
    const json = await run(['keys', 'list', '--json', ...overHttp()]);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as { items: { id: string; secret_server_key?: { last_four: string } }[] };
    expect(list.items.find((set) => set.id === created.id)?.secret_server_key).toEqual({
      last_four: created.secret_server_key.slice(-4),
    });
    expect(json.stdout).not.toContain(created.secret_server_key);
    const table = await run(['keys', 'list', ...overHttp()]);
    expect(table.stdout).toMatch(/^ID\s+STATUS\s+KEYS\s+CREATED \(UTC\)\s+EXPIRES \(UTC\)\s+DESCRIPTION\n/);
    expect(table.stdout).toContain(`ssk_…${created.secret_server_key.slice(-4)}`);
    expect(table.stdout).not.toContain(created.secret_server_key);
  });

  it('keys revoke stops the key at once', async () => {
    const result = await run(['keys', 'revoke', created.id, ...overHttp()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Revoked key set ${created.id}: its keys no longer work.\n`);
    expect(await projectAs('x-stack-secret-server-key', created.secret_server_key, 'server')).toEqual({
      status: 401,
      code: 'INVALID_SECRET_SERVER_KEY',
    });
    const list = await run(['keys', 'list', ...overHttp()]);
    expect(list.stdout).toMatch(new RegExp(`${created.id}\\s+revoked`));
  });

  it('users create and users list, as tables and as JSON', async () => {
    const made = await run([
      'users',
      'create',
      '--email',
      'cli-user@example.com',
      '--password',
      'correct-horse-1',
      '--json',
      ...overHttp(),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const user = JSON.parse(made.stdout) as { id: string; primary_email: string; has_password: boolean };
    expect(user).toMatchObject({ primary_email: 'cli-user@example.com', has_password: true });
    const list = await run(['users', 'list', '--query', 'cli-user', ...overHttp()]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+E-MAIL\s+VERIFIED/);
    expect(list.stdout).toContain(user.id);
    const json = JSON.parse((await run(['users', 'list', '--json', '--limit', '1', ...overHttp()])).stdout);
    expect(json.items).toHaveLength(1);
    expect(json.pagination).toHaveProperty('next_cursor');
  });

  it('reports known errors in one line, exit code 1, and takes the admin key from LATCHKEY_ADMIN_KEY', async () => {
    const unknown = await run(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', ...overHttp()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^latchkey: API_KEY_NOT_FOUND/);
    expect(unknown.stderr).not.toMatch(/^\s+at /m);
    const taken = await run(['users', 'create', '--email', 'cli-user@example.com', ...overHttp()]);
    expect(taken.stderr).toMatch(/USER_EMAIL_ALREADY_EXISTS/);
    const wrong = await run(['keys', 'list', '--api-url', dev.apiUrl, '--project', dev.projectId], {
      LATCHKEY_ADMIN_KEY: 'sak_wrong',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/INVALID_SUPER_SECRET_ADMIN_KEY/);
    const fromEnv = await run(['keys', 'list', '--api-url', dev.apiUrl, '--project', dev.projectId], {
      LATCHKEY_ADMIN_KEY: dev.superSecretAdminKey,
    });
    expect(fromEnv.code).toBe(0);
  });

  it('shows control characters of stored text as ?', async () => {
    await run(['keys', 'create', '--client', '--description', 'evil\u001b[2Jtext\u202eok', ...overHttp()]);
    const table = await run(['keys', 'list', ...overHttp()]);
    expect(table.stdout).toContain('evil?[2Jtext?ok');
    expect(table.stdout).not.toContain('\u001b');
  });

  it('refuses the data directory while latchkey dev holds it, pointing at --api-url', async () => {
    const result = await run(['keys', 'list', '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/in use by another latchkey process.*--api-url/);
  });
});

describe('on the data directory (--data-dir)', () => {
  let fromDataDir: { id: string; secret_server_key: string };

  beforeAll(async () => {
    await devProcess.stop();
  });

  it('keys create, list and revoke act on the development project', async () => {
    const made = await run(['keys', 'create', '--server', '--json', '--data-dir', dataDir]);
    expect(made.code, made.stderr).toBe(0);
    fromDataDir = JSON.parse(made.stdout);
    const list = JSON.parse((await run(['keys', 'list', '--json', '--data-dir', dataDir])).stdout);
    expect(list.items.map((set: { id: string }) => set.id)).toContain(fromDataDir.id);
    const doomed = JSON.parse((await run(['keys', 'create', '--client', '--json', '--data-dir', dataDir])).stdout);
    const revoked = await run(['keys', 'revoke', doomed.id, '--json', '--data-dir', dataDir]);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: doomed.id, manually_revoked_at_millis: expect.any(Number) });
    const missing = await run(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/has no key set/);
  });

  it('users create and list', async () => {
    const made = await run([
      'users',
      'create',
      '--email',
      'offline@example.com',
      '--display-name',
      'Off Line',
      '--data-dir',
      dataDir,
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('offline@example.com');
    const list = JSON.parse((await run(['users', 'list', '--json', '--data-dir', dataDir])).stdout);
    expect(list.items.map((user: { primary_email: string }) => user.primary_email)).toEqual(
      expect.arrayContaining(['cli-user@example.com', 'offline@example.com']),
    );
  });

  it('the service started again accepts the key made offline, and the same owner', async () => {
    devProcess = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    const again = JSON.parse((await devProcess.firstLine()).line) as DevJson;
    expect({ ...again, apiUrl: '', mailboxUrl: '', dashboardUrl: '' }).toEqual({
      ...dev,
      apiUrl: '',
      mailboxUrl: '',
      dashboardUrl: '',
    });
    dev = again;
    expect(await projectAs('x-stack-secret-server-key', fromDataDir.secret_server_key, 'server')).toEqual({
      status: 200,
      code: null,
    });
  });

  it('says when the directory holds no database', async () => {
    const result = await run(['keys', 'list', '--data-dir', join(scratch, 'nothing-here')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no embedded database/);
  });
});

describe('usage errors (exit code 2)', () => {
  it.each([
    [['keys'], /Usage: latchkey keys/],
    [['keys', 'rotate'], /unknown action "rotate"/],
    [['keys', 'revoke'], /revoke needs the key set id/],
    [['keys', 'list', 'extra'], /unexpected argument "extra"/],
    [['keys', 'list', '--server'], /--server goes with `keys create`/],
    [['keys', 'create', '--expires-in-days', 'soon'], /invalid --expires-in-days "soon"/],
    [['keys', 'list', '--admin-key', 'sak_x'], /--admin-key goes with --api-url/],
    [['keys', 'list', '--api-url', 'http://127.0.0.1:1'], /--api-url needs --project/],
    [['keys', 'list', '--api-url', 'http://127.0.0.1:1', '--project', 'p'], /--api-url needs --admin-key/],
    [['keys', 'list', '--api-url', 'ftp://x', '--project', 'p', '--admin-key', 'k'], /invalid --api-url/],
    [['keys', 'list', '--api-url', 'http://x', '--data-dir', 'd'], /either --data-dir or --api-url/],
    [['users', 'create'], /create needs --email/],
    [['users', 'list', '--limit', '0'], /invalid --limit "0"/],
    [['users', 'list', '--email', 'a@b.c'], /--email does not go with `users list`/],
  ])('latchkey %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('prints help with exit code 0', async () => {
    for (const command of ['keys', 'users']) {
      const result = await run([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`Usage: latchkey ${command}`));
      expect(result.stdout).toMatch(/--api-url/);
    }
  });

  it('reports an unreachable service in one line (exit code 1)', async () => {
    const result = await run(['keys', 'list', '--api-url', 'http://127.0.0.1:1', '--project', 'p', '--admin-key', 'k']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1\/api\/v1/);
  });
});
