/**
 * From an empty database to production with the built CLI, as the README
 * tells it: `migrate`, `owners create`, `projects create|list`, `keys`, then
 * `start` (health, levels by name, graceful shutdown), on PostgreSQL and on
 * an embedded data directory; and each failure of start-up in one line: a
 * wrong secret, bad DATABASE_URL forms, a bad LATCHKEY_LOG_LEVEL or REDIS_URL; and
 * the limits counted in the Redis of REDIS_URL.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresReachable, testPostgresUrl } from '@latchkey/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, ensureBuilt, runCli, runToEnd, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-cli-prod-'));
const secret = 'the production master secret, 32+ chars';
const figures: string[] = [];

beforeAll(ensureBuilt, 180_000);
afterEach(stopAll);
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (figures.length) console.log(figures.join('\n'));
});

const run = runToEnd;

function json<T = Record<string, unknown>>(result: { code: number | null; stdout: string; stderr: string }): T {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

interface NewProject {
  project: { id: string; display_name: string };
  owner_email: string | null;
  key_set: { id: string; publishable_client_key: string; secret_server_key: string; super_secret_admin_key: string };
}

async function startAndWait(args: string[], env: Record<string, string>): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli(['start', '--port', '0', ...args], env);
  await cli.waitForStderr('listening on');
  return { cli, url: /listening on (http:\/\/\S+)/.exec(cli.stderr())![1]! };
}

function clientHeaders(projectId: string, key: string): Record<string, string> {
  return {
    'x-stack-project-id': projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': key,
  };
}

/** A sign-up whose body is sent in two halves: the request is in flight until `finish` is called. */
function slowSignUp(url: string, projectId: string, key: string) {
  const body = JSON.stringify({ email: 'slow@example.com', password: 'correct-horse-battery-1' });
  const target = new URL('/api/v1/auth/password/sign-up', url);
  let req!: ReturnType<typeof request>;
  const answered = new Promise<number>((resolve, reject) => {
    req = request(
      target,
      {
        method: 'POST',
        headers: {
          ...clientHeaders(projectId, key),
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  req.flushHeaders();
  return {
    answered,
    finish: () => req.end(body.slice(10)),
  };
}

const databaseUrl = testPostgresUrl;
const postgresUp = await isPostgresReachable(databaseUrl);
if (!postgresUp) console.warn(`CLI production tests skipped: nothing answers at ${databaseUrl} (set DATABASE_URL)`);

describe.skipIf(!postgresUp)('from an empty PostgreSQL schema to production', () => {
  const schema = `cli_prod_${process.pid}_${Date.now().toString(36)}`;
  const env = { DATABASE_URL: databaseUrl, LATCHKEY_SECRET: secret };
  const where = ['--schema', schema];
  let created: NewProject;
  let ownerPassword: string;

  afterAll(async () => {
    const { openStorage } = await import('@latchkey/server');
    const { dropSchema } = await import('@latchkey/server/testing');
    await dropSchema(await openStorage({ databaseUrl, schema }));
  });

  it('creates an owner (password generated, printed once) and a project it owns, with a full key set', async () => {
    expect((await run(['migrate', ...where], env)).code).toBe(0);
    const owner = json<{ owner: { id: string; primary_email: string }; password: string }>(
      await run(['owners', 'create', '--email', 'ops@example.com', '--json', ...where], env),
    );
    expect(owner.owner.primary_email).toBe('ops@example.com');
    expect(owner.password.length).toBeGreaterThanOrEqual(20);
    ownerPassword = owner.password;

    const again = await run(
      ['owners', 'create', '--email', 'OPS@example.com', '--password', 'x'.repeat(12), ...where],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('latchkey: USER_EMAIL_ALREADY_EXISTS\n');

    const missing = await run(['projects', 'create', '--name', 'App', '--owner', 'nobody@example.com', ...where], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /no owner signs in with nobody@example\.com: create one with `latchkey owners create/,
    );

    created = json<NewProject>(
      await run(['projects', 'create', '--name', 'My app', '--owner', 'ops@example.com', '--json', ...where], env),
    );
    expect(created.project.display_name).toBe('My app');
    expect(created.owner_email).toBe('ops@example.com');
    expect(created.key_set.publishable_client_key).toMatch(/^pck_/);
    expect(created.key_set.secret_server_key).toMatch(/^ssk_/);
    expect(created.key_set.super_secret_admin_key).toMatch(/^sak_/);

    const list = json<{ items: Array<{ id: string }> }>(await run(['projects', 'list', '--json', ...where], env));
    expect(list.items.map((item) => item.id)).toEqual([created.project.id]);
    const table = await run(['projects', 'list', ...where], env);
    expect(table.stdout).toMatch(/^ID\s+PRODUCTION\s+CREATED \(UTC\)\s+NAME\n/);
    expect(table.stdout).toContain('My app');

    // The key-set commands on the same database: the project's keys by their last four characters only.
    const keys = await run(['keys', 'list', '--project', created.project.id, ...where], env);
    expect(keys.code).toBe(0);
    expect(keys.stdout).toContain(`pck_…${created.key_set.publishable_client_key.slice(-4)}`);
    expect(keys.stdout).not.toContain(created.key_set.publishable_client_key);
    const noProject = await run(['keys', 'list', ...where], env);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toMatch(/with DATABASE_URL, pass --project <id>/);
  });

  it('starts with a URL one can open, health answers, levels by name, and a graceful stop finishes a request in flight', async () => {
    expect(created).toBeDefined();
    const { cli, url } = await startAndWait(['--host', '0.0.0.0', ...where], env);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.stderr()).toMatch(/on all interfaces, 0\.0\.0\.0/);
    // No SMTP server: one line says the shared sender's mail will fail.
    expect(
      cli
        .stderr()
        .split('\n')
        .filter((line) => line.includes('LATCHKEY_SMTP_URL')),
    ).toEqual([
      expect.stringMatching(
        /^latchkey: warning: LATCHKEY_SMTP_URL is not set, so mail of projects on the shared e-mail config .* fails/,
      ),
    ]);
    expect(await (await fetch(`${url}/api/v1/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/api/v1/health/ready`);
    expect(ready.status).toBe(200);

    const key = created.key_set.publishable_client_key;
    const current = await fetch(`${url}/api/v1/projects/current`, { headers: clientHeaders(created.project.id, key) });
    expect(current.status).toBe(200);
    // Creates the project's signing key under this secret (checked by the next test).
    expect((await fetch(`${url}/api/v1/projects/${created.project.id}/.well-known/jwks.json`)).status).toBe(200);
    await cli.waitForStdout('jwks.json');

    // The owner signs in on the internal project (with a publishable key made for it) and administers the project.
    const internal = json<{ publishable_client_key: string }>(
      await run(['keys', 'create', '--project', 'internal', '--client', '--json', ...where], env),
    );
    const signIn = await fetch(`${url}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: { ...clientHeaders('internal', internal.publishable_client_key), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: ownerPassword }),
    });
    expect(signIn.status).toBe(200);
    const { access_token } = (await signIn.json()) as { access_token: string };
    const asOwner = await fetch(`${url}/api/v1/projects/current`, {
      headers: {
        'x-stack-project-id': created.project.id,
        'x-stack-access-type': 'admin',
        'x-stack-admin-access-token': access_token,
      },
    });
    expect(asOwner.status).toBe(200);

    const slow = slowSignUp(url, created.project.id, key);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the request has reached the server
    const stopAt = performance.now();
    cli.child.kill('SIGTERM');
    await cli.waitForStdout('"msg":"stopping');
    slow.finish();
    expect(await slow.answered).toBe(200);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    figures.push(
      `[figure] latchkey start: SIGTERM -> exit with a sign-up in flight: ${Math.round(performance.now() - stopAt)} ms`,
    );

    const lines = cli
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.every((line) => typeof line.level === 'string')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' });
    expect(lines.find((line) => line.path === '/api/v1/auth/password/sign-up')).toMatchObject({ status: 200 });
    await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
  });

  it('keeps sign-up to the internal project closed unless the operator opens it, and closes it again', async () => {
    const internal = json<{ publishable_client_key: string }>(
      await run(['keys', 'create', '--project', 'internal', '--client', '--json', ...where], env),
    );
    const signUpAt = (url: string, email: string) =>
      fetch(`${url}/api/v1/auth/password/sign-up`, {
        method: 'POST',
        headers: { ...clientHeaders('internal', internal.publishable_client_key), 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct-horse-battery-1' }),
      });
    const closed = await startAndWait(['--host', '127.0.0.1', ...where], env);
    const refused = await signUpAt(closed.url, 'stranger@example.com');
    expect(refused.headers.get('x-stack-known-error')).toBe('SIGN_UP_NOT_ENABLED');
    await closed.cli.stop();

    const opened = await startAndWait(['--host', '127.0.0.1', '--open-sign-up', ...where], env);
    expect((await signUpAt(opened.url, 'invited-by-flag@example.com')).status).toBe(200);
    await opened.cli.stop();
    const byEnv = await startAndWait(['--host', '127.0.0.1', ...where], { ...env, LATCHKEY_OPEN_SIGN_UP: 'true' });
    expect((await signUpAt(byEnv.url, 'invited-by-env@example.com')).status).toBe(200);
    await byEnv.cli.stop();

    // The next start without it closes the database the open start left open.
    const again = await startAndWait(['--host', '127.0.0.1', ...where], env);
    expect((await signUpAt(again.url, 'late@example.com')).headers.get('x-stack-known-error')).toBe(
      'SIGN_UP_NOT_ENABLED',
    );
    await again.cli.stop();
  });

  it('serves the dashboard at /dashboard/ with a key of its own that owners sign in with, unless --no-dashboard', async () => {
    const owner = json<{ owner: { primary_email: string }; password: string }>(
      await run(['owners', 'create', '--email', 'dash-owner@example.com', '--json', ...where], env),
    );
    const served = await startAndWait(['--host', '127.0.0.1', ...where], env);
    expect(served.cli.stderr()).toContain(`Dashboard: ${served.url}/dashboard/`);
    const page = await fetch(`${served.url}/dashboard/projects`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const config = (await (await fetch(`${served.url}/dashboard/config.json`)).json()) as Record<string, unknown>;
    // Production hands out no owner: owners sign in with their own password.
    expect(Object.keys(config)).toEqual(['internalPublishableClientKey']);
    const signIn = await fetch(`${served.url}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: {
        ...clientHeaders('internal', config.internalPublishableClientKey as string),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: owner.owner.primary_email, password: owner.password }),
    });
    expect(signIn.status).toBe(200);
    await served.cli.stop();

    const without = await startAndWait(['--host', '127.0.0.1', '--no-dashboard', ...where], {
      ...env,
      LATCHKEY_SMTP_URL: 'smtp://127.0.0.1:9',
    });
    expect(without.cli.stderr()).not.toContain('Dashboard:');
    // With an SMTP server there is nothing to warn of.
    expect(without.cli.stderr()).not.toContain('warning');
    expect((await fetch(`${without.url}/dashboard/`)).status).toBe(404);
    await without.cli.stop();
  });

  it('refuses another LATCHKEY_SECRET before it listens or writes, naming the variable', async () => {
    expect(created).toBeDefined();
    const wrong = await run(['start', '--port', '0', ...where], {
      ...env,
      LATCHKEY_SECRET: 'another secret of 32 or more characters',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'latchkey: LATCHKEY_SECRET does not open the signing keys stored in this database: it is not the secret the data was created with; set LATCHKEY_SECRET to that secret\n',
    );
    expect(wrong.stdout).toBe('');
  });

  it('starts on a new secret while LATCHKEY_ACCEPTED_SECRET names the one the data is sealed with', async () => {
    expect(created).toBeDefined();
    const next = 'the next master secret, 32+ chars: 8f2Kq9';
    const stillWrong = await run(['start', '--port', '0', ...where], {
      ...env,
      LATCHKEY_SECRET: next,
      LATCHKEY_ACCEPTED_SECRET: 'yet another secret of 32 or more characters',
    });
    expect(stillWrong.code).toBe(1);
    expect(stillWrong.stderr).toMatch(/^latchkey: LATCHKEY_SECRET \(nor LATCHKEY_ACCEPTED_SECRET\) does not open/);
    const { cli, url } = await startAndWait(['--host', '127.0.0.1', ...where], {
      ...env,
      LATCHKEY_SECRET: next,
      LATCHKEY_ACCEPTED_SECRET: secret, // it holds a comma and spaces: taken whole
    });
    const key = created.key_set.publishable_client_key;
    const signIn = await fetch(`${url}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: { ...clientHeaders(created.project.id, key), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody-here@example.com', password: 'correct-horse-1' }),
    });
    // The service answers sign-ins (here a wrong one) rather than failing.
    expect(signIn.headers.get('x-stack-known-error')).toBe('EMAIL_PASSWORD_MISMATCH');
    expect(await cli.stop()).toEqual({ code: 0, signal: null });
  });

  it('counts the limits in the Redis of REDIS_URL: while it does not answer a sign-in is 503, the rest works', async () => {
    expect(created).toBeDefined();
    const { cli, url } = await startAndWait(['--host', '127.0.0.1', ...where], {
      ...env,
      REDIS_URL: 'redis://:hunter22@127.0.0.1:1',
    });
    expect(cli.stderr()).toMatch(/limits counted in redis:\/\/:\*\*\*@127\.0\.0\.1:1\)/);
    const key = created.key_set.publishable_client_key;
    const current = await fetch(`${url}/api/v1/projects/current`, { headers: clientHeaders(created.project.id, key) });
    expect(current.status).toBe(200);
    const signIn = await fetch(`${url}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: { ...clientHeaders(created.project.id, key), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'a guess' }),
    });
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('retry-after')).toBe('2');
    expect(await cli.stop()).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toMatch(/"msg":"redis unavailable/);
    expect(cli.stdout() + cli.stderr()).not.toContain('hunter22');
  });

  it('honours LATCHKEY_LOG_LEVEL: warn hides the request lines, info shows those of migrate, a bad name is a usage error', async () => {
    const quiet = await startAndWait(['--host', '127.0.0.1', ...where], { ...env, LATCHKEY_LOG_LEVEL: 'warn' });
    await fetch(`${quiet.url}/api/v1/health`);
    expect(await quiet.cli.stop()).toEqual({ code: 0, signal: null });
    expect(quiet.cli.stdout()).toBe('');

    for (const command of [
      ['start'],
      ['migrate'],
      ['owners', 'create', '--email', 'a@example.com'],
      ['projects', 'list'],
    ]) {
      const bad = await run([...command, ...where], { ...env, LATCHKEY_LOG_LEVEL: 'loud' });
      expect({ command, code: bad.code }).toEqual({ command, code: 2 });
      expect(bad.stderr).toMatch(
        /^latchkey: LATCHKEY_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)/,
      );
    }
    const migrate = await run(['migrate', ...where], { ...env, LATCHKEY_LOG_LEVEL: 'info' });
    expect(migrate.code).toBe(0);
    const logged = migrate.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(logged.map((line) => [line.level, line.msg])).toEqual([
      ['info', 'migrating'],
      ['info', 'migrated'],
    ]);
  });
});

describe.skipIf(!postgresUp)('a first start', () => {
  const schema = `cli_pin_${process.pid}_${Date.now().toString(36)}`;
  afterAll(async () => {
    const { openStorage } = await import('@latchkey/server');
    const { dropSchema } = await import('@latchkey/server/testing');
    await dropSchema(await openStorage({ databaseUrl, schema }));
  });

  it('pins its secret, so a second start with another one is refused even before any sign-in', async () => {
    const env = { DATABASE_URL: databaseUrl, LATCHKEY_SECRET: secret };
    const first = await startAndWait(['--host', '127.0.0.1', '--schema', schema], env);
    expect(await first.cli.stop()).toEqual({ code: 0, signal: null });
    const second = await run(['start', '--port', '0', '--schema', schema], {
      ...env,
      LATCHKEY_SECRET: 'another secret of 32 or more characters',
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/^latchkey: LATCHKEY_SECRET does not open the signing keys stored in this database/);
  });
});

describe('DATABASE_URL that cannot work', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'not-a-url',
      'not-a-url',
      /^latchkey: DATABASE_URL is not a URL: expected postgres:\/\/user:password@host:5432\/database\n$/,
    ],
    [
      'mysql',
      'mysql://root:hunter22@db.example.com/app',
      /^latchkey: DATABASE_URL is a mysql:\/\/ URL, but Latchkey needs PostgreSQL/,
    ],
    [
      'an unreachable port',
      'postgres://app:hunter22@127.0.0.1:1/app',
      /^latchkey: DATABASE_URL: nothing accepts connections at 127\.0\.0\.1:1/,
    ],
    [
      'a host that does not resolve',
      'postgres://app:hunter22@db.invalid/app',
      /^latchkey: DATABASE_URL: the host "db\.invalid" does not resolve\n$/,
    ],
  ];
  if (postgresUp) {
    const local = new URL(databaseUrl);
    cases.push([
      'wrong credentials',
      `postgres://no_such_role:hunter22@${local.host}/${local.pathname.slice(1)}`,
      /^latchkey: DATABASE_URL: PostgreSQL at \S+ refused user "no_such_role" \(wrong user name or password, or no access\)\n$/,
    ]);
  }
  for (const [name, url, message] of cases) {
    it(`stops start and migrate with one line for ${name}, never the password`, async () => {
      for (const args of [['start', '--port', '0'], ['migrate']]) {
        const result = await run(args, { DATABASE_URL: url, LATCHKEY_SECRET: secret });
        expect({ args, code: result.code }).toEqual({ args, code: 1 });
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toContain('hunter22');
        expect(result.stderr.split('\n')).toHaveLength(2);
      }
    });
  }
});

describe('REDIS_URL that cannot work', () => {
  it('stops start with one line naming it, never the password, before anything connects', async () => {
    const result = await run(['start', '--port', '0'], {
      DATABASE_URL: 'postgres://app@127.0.0.1:1/app',
      LATCHKEY_SECRET: secret,
      REDIS_URL: 'http://:hunter22@redis.internal:6379',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^latchkey: REDIS_URL is a http:\/\/ URL: expected redis:\/\//);
    expect(result.stderr).not.toContain('hunter22');
    expect(result.stderr.split('\n')).toHaveLength(2);
  });
});

describe('the same commands on an embedded data directory', () => {
  it('create an owner and a project, list it, and `dev` on that directory refuses another secret', async () => {
    const dataDir = join(scratch, 'embedded');
    expect((await run(['migrate', '--data-dir', dataDir])).code).toBe(0);
    const owner = json<{ owner: { id: string }; password?: string }>(
      await run([
        'owners',
        'create',
        '--email',
        'ops@example.com',
        '--password',
        'correct-horse-1',
        '--json',
        '--data-dir',
        dataDir,
      ]),
    );
    expect(owner.password).toBeUndefined();
    const text = await run([
      'projects',
      'create',
      '--name',
      'Embedded app',
      '--owner',
      'ops@example.com',
      '--data-dir',
      dataDir,
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Publishable client key\s+pck_\w+/);
    expect(text.stdout).toMatch(/shown this once/);
    const list = json<{ items: Array<{ display_name: string }> }>(
      await run(['projects', 'list', '--json', '--data-dir', dataDir]),
    );
    expect(list.items.map((item) => item.display_name)).toEqual(['Embedded app']);

    const first = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir], { LATCHKEY_SECRET: secret });
    const dev = JSON.parse((await first.firstLine()).line) as { apiUrl: string; projectId: string };
    expect((await fetch(`${dev.apiUrl}/api/v1/projects/${dev.projectId}/.well-known/jwks.json`)).status).toBe(200);

    // Another process on the directory is refused for the directory, not the port.
    const port = new URL(dev.apiUrl).port;
    const second = await run(['dev', '--port', port, '--data-dir', dataDir], { LATCHKEY_SECRET: secret });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /the data directory \S+ is in use by another latchkey process \(pid \d+\); stop it or pass another --data-dir/,
    );
    expect(second.stderr).not.toMatch(/--port/);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const wrong = await run(['dev', '--json', '--port', '0', '--data-dir', dataDir], {
      LATCHKEY_SECRET: 'another secret of 32 or more characters',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^latchkey: LATCHKEY_SECRET does not open the signing keys stored in this database/);
    expect(wrong.stdout).toBe('');
  });
});
