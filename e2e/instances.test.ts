/**
 * Several instances as one service, the documented way to scale
 * out: three `latchkey start` processes on one PostgreSQL schema behind a
 * round-robin proxy, mail through one SMTP server. A session made through one
 * instance works on all; a sign-out and a key revocation made through one are
 * refused by all within a second; wrong passwords spread over the three add
 * up to one back-off; a mail queued through one is sent exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from '../packages/server/src/test-support/api.js';
import { type SmtpPeer, startSmtpPeer } from '../packages/server/src/test-support/smtp-peer.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = `${repoRoot}packages/cli/dist/bin.js`;
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `e2e_multi_${process.pid}_${Date.now().toString(36)}`;
const secret = randomBytes(32).toString('base64url');

const { isPostgresReachable, dropSchema } = await import('@latchkey/server/testing');
const postgresUp = await isPostgresReachable(databaseUrl);

let smtp: SmtpPeer;
const instances: { child: ChildProcess; url: string }[] = [];
let proxy: Server;
let api: string;
let keys: { projectId: string; pck: string; ssk: string; sak: string };

function cli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [bin, ...args, '--schema', schema], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LATCHKEY_SECRET: secret, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function runToEnd(args: string[]): Promise<string> {
  const child = cli(args);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`latchkey ${args.join(' ')} failed: ${err}`);
  return out;
}

async function startInstance(): Promise<{ child: ChildProcess; url: string }> {
  const child = cli(['start', '--port', '0', '--host', '127.0.0.1'], {
    LATCHKEY_SMTP_URL: smtp.url,
    LATCHKEY_LOG_LEVEL: 'warn',
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk) => {
      err += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`an instance exited: ${err}`)));
  });
  return { child, url };
}

/** Which instance each request went to, in order. */
const routed: number[] = [];

beforeAll(async () => {
  if (!postgresUp) return;
  smtp = await startSmtpPeer();
  await runToEnd(['migrate']);
  await runToEnd(['owners', 'create', '--email', 'ops@example.com', '--json']);
  const created = JSON.parse(
    await runToEnd(['projects', 'create', '--name', 'Scaled', '--owner', 'ops@example.com', '--json']),
  );
  keys = {
    projectId: created.project.id,
    pck: created.key_set.publishable_client_key,
    ssk: created.key_set.secret_server_key,
    sak: created.key_set.super_secret_admin_key,
  };
  for (let i = 0; i < 3; i++) instances.push(await startInstance());
  let next = 0;
  proxy = createServer(async (request, response) => {
    const index = next++ % instances.length;
    routed.push(index);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length') as [
        string,
        string,
      ][],
    );
    const answer = await fetch(`${instances[index]!.url}${request.url}`, {
      method: request.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`;
}, 120_000);

afterAll(async () => {
  if (!postgresUp) return;
  proxy?.close();
  for (const { child } of instances) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  await smtp?.close();
  const { openStorage } = await import('@latchkey/server');
  await dropSchema(await openStorage({ databaseUrl, schema }));
});

const headers = (access: 'client' | 'server' | 'admin', extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-stack-project-id': keys.projectId,
  'x-stack-access-type': access,
  'x-stack-publishable-client-key': keys.pck,
  ...(access !== 'client' ? { 'x-stack-secret-server-key': keys.ssk } : {}),
  ...(access === 'admin' ? { 'x-stack-super-secret-admin-key': keys.sak } : {}),
  ...extra,
});

async function send(method: string, path: string, init: { headers: Record<string, string>; json?: unknown }) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: init.headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return {
    status: response.status,
    code: response.headers.get('x-stack-known-error'),
    body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
  };
}

/** Sends `request` once to each of the three instances (the proxy takes turns). */
async function onEveryInstance<T>(request: () => Promise<T>): Promise<T[]> {
  return [await request(), await request(), await request()];
}

const figures: string[] = [];
afterAll(() => {
  if (figures.length) console.log(`[figure] three instances: ${figures.join('; ')}`);
});

describe.skipIf(!postgresUp)('three instances behind a round-robin proxy', () => {
  it('share sessions, and a sign-out through one is refused by all within a second', async () => {
    const email = `multi-${Date.now()}@example.com`;
    const up = await send('POST', '/auth/password/sign-up', {
      headers: headers('client'),
      json: { email, password: 'correct-horse-1' },
    });
    expect(up.status).toBe(200);
    const me = () =>
      send('GET', '/users/me', { headers: headers('client', { 'x-stack-access-token': up.body.access_token }) });
    const seen = await onEveryInstance(me);
    expect(seen.map((answer) => answer.body.primary_email)).toEqual([email, email, email]);
    expect(new Set(routed.slice(-3)).size).toBe(3);

    const out = await send('DELETE', '/auth/sessions/current', {
      headers: headers('client', {
        'x-stack-access-token': up.body.access_token,
        'x-stack-refresh-token': up.body.refresh_token,
      }),
      json: {},
    });
    expect(out.status).toBe(200);
    const took = await within(async () =>
      (await onEveryInstance(me)).every((answer) => answer.code === 'ACCESS_TOKEN_EXPIRED'),
    );
    figures.push(`sign-out refused by all three after ${Math.round(took)} ms`);
  });

  it('refuse a revoked key set on every instance within a second', async () => {
    const created = await send('POST', '/internal/api-keys', {
      headers: headers('admin'),
      json: { description: 'scaled', expires_at_millis: Date.now() + 3_600_000, has_publishable_client_key: true },
    });
    expect(created.status).toBe(200);
    const withKey = () =>
      send('GET', '/projects/current', {
        headers: { ...headers('client'), 'x-stack-publishable-client-key': created.body.publishable_client_key },
      });
    // A new key set is announced to the other instances as a revocation is: within a second it works on all.
    await within(async () => (await onEveryInstance(withKey)).every((answer) => answer.status === 200));
    const revoked = await send('PATCH', `/internal/api-keys/${created.body.id}`, {
      headers: headers('admin'),
      json: { revoked: true },
    });
    expect(revoked.status).toBe(200);
    const took = await within(async () =>
      (await onEveryInstance(withKey)).every((answer) => answer.code === 'INVALID_PUBLISHABLE_CLIENT_KEY'),
    );
    figures.push(`key revocation refused by all three after ${Math.round(took)} ms`);
  });

  it('add up wrong passwords across the instances into one back-off', async () => {
    const email = `guessed-${Date.now()}@example.com`;
    await send('POST', '/auth/password/sign-up', {
      headers: headers('client'),
      json: { email, password: 'correct-horse-1' },
    });
    const signIn = (password: string) =>
      send('POST', '/auth/password/sign-in', { headers: headers('client'), json: { email, password } });
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong-${i}`)).code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect(new Set(routed.slice(-5)).size).toBe(3);
    const held = await onEveryInstance(() => signIn('correct-horse-1'));
    expect(held.map((answer) => answer.status)).toEqual([429, 429, 429]);
  });

  it('send a mail queued through one instance exactly once', async () => {
    const email = `mailed-${Date.now()}@example.com`;
    await send('POST', '/auth/password/sign-up', {
      headers: headers('client'),
      json: { email, password: 'correct-horse-1' },
    });
    const before = smtp.messages.length;
    const reset = await send('POST', '/auth/password/send-reset-code', {
      headers: headers('client'),
      json: { email, callback_url: 'http://localhost:3000/handler/password-reset' },
    });
    expect(reset.status).toBe(200);
    await smtp.waitForMessages(before + 1);
    // Every worker woke on the notification; give a duplicate the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(smtp.messages.slice(before).filter((mail) => mail.to.includes(email))).toHaveLength(1);
  });
});
