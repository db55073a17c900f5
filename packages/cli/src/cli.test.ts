import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresReachable, testPostgresUrl } from '@latchkey/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo as DevJson } from './internal/format.js';
import { type CliProcess, ensureBuilt, runCli, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-cli-'));
const figures: string[] = [];

beforeAll(ensureBuilt, 180_000);
afterEach(stopAll);
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (figures.length) console.log(figures.join('\n'));
});

function clientHeaders(dev: DevJson): Record<string, string> {
  return {
    'x-stack-project-id': dev.projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': dev.publishableClientKey,
  };
}

async function currentProject(dev: DevJson): Promise<{ status: number; id: unknown }> {
  const response = await fetch(`${dev.apiUrl}/api/v1/projects/current`, { headers: clientHeaders(dev) });
  const body = (await response.json()) as { id?: unknown };
  return { status: response.status, id: body.id };
}

async function postPassword(dev: DevJson, action: 'sign-up' | 'sign-in', email: string, password: string) {
  const response = await fetch(`${dev.apiUrl}/api/v1/auth/password/${action}`, {
    method: 'POST',
    headers: { ...clientHeaders(dev), 'content-type': 'application/json' },
    body: JSON.stringify(
      action === 'sign-up'
        ? { email, password, verification_callback_url: 'http://localhost:5173/handler/email-verification' }
        : { email, password },
    ),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string; user_id?: string } };
}

async function readDevJson(cli: CliProcess): Promise<{ dev: DevJson; ms: number }> {
  const { line, ms } = await cli.firstLine();
  return { dev: JSON.parse(line) as DevJson, ms };
}

describe('latchkey dev --json', () => {
  const dataDir = join(scratch, 'dev');
  const email = 'ada@example.com';
  const password = 'correct horse battery staple';
  let first: DevJson;

  it('prints one JSON line once the service answers, with keys that work', async () => {
    const cli = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    const { dev, ms } = await readDevJson(cli);
    figures.push(`[figure] latchkey dev ready (spawn -> JSON line), first start on a new data dir: ${ms} ms`);
    first = dev;

    expect(Object.keys(dev).sort()).toEqual(
      [
        'apiUrl',
        'dataDir',
        'projectId',
        'publishableClientKey',
        'secretServerKey',
        'superSecretAdminKey',
        'ownerEmail',
        'ownerPassword',
        'internalPublishableClientKey',
        'mailboxUrl',
        'dashboardUrl',
      ].sort(),
    );
    expect(dev.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(dev.mailboxUrl).toBe(`${dev.apiUrl}/mailbox`);
    const mailbox = await fetch(`${dev.mailboxUrl}/api/messages`);
    expect(mailbox.status).toBe(200);
    expect(await mailbox.json()).toEqual({ items: expect.any(Array) });
    expect((await fetch(dev.mailboxUrl)).headers.get('content-type')).toMatch(/^text\/html/);
    // The dashboard, served by the service; its config names a key of the internal project and the dev owner.
    expect(dev.dashboardUrl).toBe(`${dev.apiUrl}/dashboard/`);
    const dashboard = await fetch(`${dev.apiUrl}/dashboard/`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('<div id="root">');
    const dashboardConfig = (await (await fetch(`${dev.apiUrl}/dashboard/config.json`)).json()) as {
      internalPublishableClientKey: string;
      devOwner: { email: string; password: string };
    };
    expect(dashboardConfig.devOwner).toEqual({ email: dev.ownerEmail, password: dev.ownerPassword });
    const ownerSignIn = await fetch(`${dev.apiUrl}/api/v1/auth/password/sign-in`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': dashboardConfig.internalPublishableClientKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: dev.ownerEmail, password: dev.ownerPassword }),
    });
    expect(ownerSignIn.status).toBe(200);
    expect(dev.dataDir).toBe(dataDir);
    expect(dev.publishableClientKey).toMatch(/^pck_/);
    expect(dev.secretServerKey).toMatch(/^ssk_/);
    expect(dev.superSecretAdminKey).toMatch(/^sak_/);

    expect(await currentProject(dev)).toEqual({ status: 200, id: dev.projectId });
    const signUp = await postPassword(dev, 'sign-up', email, password);
    expect(signUp.status).toBeLessThan(300);
    expect(signUp.body.access_token).toEqual(expect.any(String));
    // Development keeps the dashboard open: anyone on the laptop may sign up as an owner.
    const ownerSignUp = await fetch(`${dev.apiUrl}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': dev.internalPublishableClientKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'dev-owner@example.com', password }),
    });
    expect(ownerSignUp.status).toBe(200);

    for (const file of ['secret', 'dev-project.json']) {
      expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    }

    expect(await cli.stop()).toEqual({ code: 0, signal: null });
    expect(cli.stdout().split('\n')).toEqual([expect.any(String), '']);
  });

  it('prints the same project and keys after a restart on the same data dir, and they still authenticate', async () => {
    expect(first).toBeDefined();
    const cli = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    const { dev, ms } = await readDevJson(cli);
    figures.push(`[figure] latchkey dev ready (spawn -> JSON line), restart on an existing data dir: ${ms} ms`);

    expect({ ...dev, apiUrl: undefined, mailboxUrl: undefined, dashboardUrl: undefined }).toEqual({
      ...first,
      apiUrl: undefined,
      mailboxUrl: undefined,
      dashboardUrl: undefined,
    });
    expect(await currentProject(dev)).toEqual({ status: 200, id: first.projectId });
    const signIn = await postPassword(dev, 'sign-in', email, password);
    expect(signIn.status).toBe(200);
    expect(signIn.body.access_token).toEqual(expect.any(String));

    // The embedded database has one writer: a second process on the same directory is refused.
    const second = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr()).toMatch(/in use by another latchkey process/);
    expect(second.stdout()).toBe('');

    expect(await cli.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('without --json prints a friendly block with the keys and says they are for development', async () => {
    expect(first).toBeDefined();
    const cli = runCli(['dev', '--port', '0', '--data-dir', dataDir]);
    await cli.waitForStdout('Ctrl-C');
    const out = cli.stdout();
    for (const value of [
      first.projectId,
      first.publishableClientKey,
      first.secretServerKey,
      first.superSecretAdminKey,
    ]) {
      expect(out).toContain(value);
    }
    expect(out).toMatch(/API URL\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/development/);
    expect((await cli.stop()).code).toBe(0);
  });

  it('issues a new key set for the same project when dev-project.json was deleted', async () => {
    expect(first).toBeDefined();
    rmSync(join(dataDir, 'dev-project.json'));
    const cli = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    const { dev } = await readDevJson(cli);
    expect(dev.projectId).toBe(first.projectId);
    expect(dev.publishableClientKey).not.toBe(first.publishableClientKey);
    expect(cli.stderr()).toMatch(/dev-project\.json was missing: issued a new development key set/);
    expect(await currentProject(dev)).toEqual({ status: 200, id: first.projectId });
    expect(statSync(join(dataDir, 'dev-project.json')).mode & 0o777).toBe(0o600);
  });
});

describe('latchkey dev failures', () => {
  let blocker: Server;
  let busyPort: number;

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    busyPort = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('reports a port in use in one line, with exit code 1 and no stack trace', async () => {
    const cli = runCli(['dev', '--json', '--port', String(busyPort), '--data-dir', join(scratch, 'busy')]);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toContain(`port ${busyPort} is already in use`);
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
    expect(cli.stdout()).toBe('');
  });

  it('rejects unknown flags and bad ports as usage errors (exit code 2)', async () => {
    const unknown = runCli(['dev', '--bogus']);
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.stderr()).toMatch(/--bogus/);
    expect(unknown.stderr()).toMatch(/latchkey dev --help/);

    const badPort = runCli(['dev', '--port', 'eighty']);
    expect((await badPort.exited).code).toBe(2);
    expect(badPort.stderr()).toMatch(/invalid port "eighty"/);

    const unknownCommand = runCli(['serve']);
    expect((await unknownCommand.exited).code).toBe(2);
    expect(unknownCommand.stderr()).toMatch(/unknown command "serve"/);
  });

  it('prints help on --help with exit code 0', async () => {
    const cli = runCli(['dev', '--help']);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout()).toMatch(/Usage: latchkey dev/);
    expect(cli.stdout()).toMatch(/--data-dir/);
  });
});

describe('latchkey start', () => {
  it('refuses to start without DATABASE_URL, saying so', async () => {
    const cli = runCli(['start', '--port', '0'], { LATCHKEY_SECRET: 'x'.repeat(40) });
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toMatch(/DATABASE_URL is not set/);
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
  });

  it('refuses a master secret shorter than 32 characters', async () => {
    const cli = runCli(['start', '--port', '0'], {
      DATABASE_URL: 'postgres://127.0.0.1:1/none',
      LATCHKEY_SECRET: 'short',
    });
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toMatch(/too short/);
  });
});

// Against PostgreSQL when one answers (DATABASE_URL, else the local one), each run in a fresh schema dropped afterwards.
const databaseUrl = testPostgresUrl;
const postgresUp = await isPostgresReachable(databaseUrl);
if (!postgresUp) console.warn(`CLI PostgreSQL tests skipped: nothing answers at ${databaseUrl} (set DATABASE_URL)`);

describe.skipIf(!postgresUp)('latchkey start and migrate on PostgreSQL', () => {
  const schema = `cli_test_${process.pid}_${Date.now().toString(36)}`;
  const env = { DATABASE_URL: databaseUrl, LATCHKEY_SECRET: 'a master secret of more than 32 characters' };

  afterAll(async () => {
    const { openStorage } = await import('@latchkey/server');
    const { dropSchema } = await import('@latchkey/server/testing');
    await dropSchema(await openStorage({ databaseUrl, schema }));
  });

  it('migrates, then serves with JSON logs on stdout and the URL on stderr', async () => {
    const migrate = runCli(['migrate', '--schema', schema], env);
    expect((await migrate.exited).code).toBe(0);

    const cli = runCli(['start', '--port', '0', '--host', '127.0.0.1', '--schema', schema], env);
    await cli.waitForStderr('listening on');
    const url = /listening on (http:\/\/\S+)/.exec(cli.stderr())![1]!;
    const response = await fetch(`${url}/api/v1/projects/current`, {
      headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
    });
    expect(response.headers.get('x-stack-known-error')).toBe('CLIENT_AUTHENTICATION_REQUIRED');
    await cli.waitForStdout('"path":"/api/v1/projects/current"');
    const lines = cli
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'listening', url });
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      level: 'info',
      path: '/api/v1/projects/current',
      status: 401,
    });
    expect(await cli.stop()).toEqual({ code: 0, signal: null });
  });
});

describe('latchkey migrate', () => {
  it('applies the migrations to an embedded database directory', async () => {
    const cli = runCli(['migrate', '--data-dir', join(scratch, 'migrate')]);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stderr()).toMatch(/Migrations applied/);
  });
});
