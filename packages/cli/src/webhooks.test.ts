/**
 * `latchkey webhooks` as users run it (the built CLI): endpoints listed and
 * created on a running `latchkey dev`, the secret printed once; deliveries
 * and replay against a stand-in of the message routes (recorded answers);
 * and the refusals of a wrong command line.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo as DevJson } from './internal/format.js';
import { type CliProcess, ensureBuilt, overHttpArgs, runCli, runToEnd, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-cli-webhooks-'));
let devProcess: CliProcess;
let dev: DevJson;

beforeAll(async () => {
  ensureBuilt();
  devProcess = runCli(['dev', '--json', '--port', '0', '--data-dir', join(scratch, 'dev')]);
  dev = JSON.parse((await devProcess.firstLine()).line) as DevJson;
}, 180_000);
afterAll(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

const run = runToEnd;

const overHttp = () => overHttpArgs(dev);

describe('latchkey webhooks on a running service', () => {
  it('create prints the endpoint and its secret once; list shows it without the secret', async () => {
    const made = await run([
      'webhooks',
      'create',
      'https://hooks.example.com/crm',
      '--events',
      'user.created, user.deleted',
      '--description',
      'CRM',
      ...overHttp(),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const secret = /Signing secret\s+(whsec_\S+)/.exec(made.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(made.stdout).toMatch(/Events\s+user\.created, user\.deleted/);
    expect(made.stdout).toContain('shown this once');

    const table = await run(['webhooks', 'list', ...overHttp()]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+STATE\s+EVENTS/);
    expect(table.stdout).toMatch(/enabled\s+user\.created,user\.deleted\s.*https:\/\/hooks\.example\.com\/crm\s+CRM/);
    expect(table.stdout).not.toContain(secret!);
  });

  it('--json answers in the API shapes', async () => {
    const made = await run([
      'webhooks',
      'create',
      'https://hooks.example.com/all',
      '--disabled',
      '--json',
      ...overHttp(),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout);
    expect(created).toMatchObject({ url: 'https://hooks.example.com/all', event_types: null, enabled: false });
    expect(created.secret).toMatch(/^whsec_/);
    const list = JSON.parse((await run(['webhooks', 'list', '--json', ...overHttp()])).stdout);
    expect(list.is_paginated).toBe(false);
    const { secret: _, ...shown } = created;
    expect(list.items).toContainEqual(shown);
  });

  it('reports a refused URL as its known error, exit code 1', async () => {
    const refused = await run(['webhooks', 'create', 'ftp://hooks.example.com', ...overHttp()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^latchkey: SCHEMA_ERROR/);
    const unknown = await run([
      'webhooks',
      'create',
      'https://hooks.example.com',
      '--events',
      'user.exploded',
      ...overHttp(),
    ]);
    expect(unknown.stderr).toMatch(/SCHEMA_ERROR/);
  });
});

describe('latchkey webhooks deliveries and replay', () => {
  const endpointId = '2b8c6a1e-5d4f-4a3b-9c2d-1e0f9a8b7c6d';
  const message = {
    id: '9f0f3a52-8c1e-4f7e-9b43-3f0f6c1d2a10',
    event_type: 'user.created',
    status: 'failed',
    attempts: 3,
    next_attempt_at_millis: null,
    last_response_status: 500,
    last_error: 'the receiver answered 500',
    created_at_millis: 1_795_456_980_000,
    delivered_at_millis: null,
  };
  const seen: { method: string; url: string; body: string; key: string | undefined }[] = [];
  let stand: Server;
  let base: string;

  beforeAll(async () => {
    stand = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({
          method: request.method!,
          url: request.url!,
          body,
          key: request.headers['x-stack-super-secret-admin-key'] as string,
        });
        const json = (value: unknown) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(value));
        };
        if (request.url?.startsWith(`/api/v1/webhooks/endpoints/${endpointId}/messages`)) {
          return json({ items: [message], is_paginated: true, pagination: { next_cursor: 'page-2' } });
        }
        if (request.url === `/api/v1/webhooks/messages/${message.id}/replay`) {
          return json({ ...message, status: 'pending', next_attempt_at_millis: 1_795_457_000_000 });
        }
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-stack-known-error': 'WEBHOOK_ENDPOINT_NOT_FOUND',
        });
        response.end(JSON.stringify({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND', error: 'Webhook endpoint not found.' }));
      });
    });
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(stand.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => stand.close(resolve)));

  const against = () => ['--api-url', base, '--project', 'p1', '--admin-key', 'sak_stand'];

  it('deliveries lists the messages with their status, and where the next page starts', async () => {
    const result = await run([
      'webhooks',
      'deliveries',
      endpointId,
      '--limit',
      '10',
      '--cursor',
      'page-1',
      ...against(),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST STATUS/);
    expect(result.stdout).toMatch(
      new RegExp(`${message.id}\\s+user\\.created\\s+failed\\s+3\\s+500\\s.*the receiver answered 500`),
    );
    expect(result.stdout).toContain('More: --cursor page-2');
    expect(seen.at(-1)).toMatchObject({
      method: 'GET',
      url: `/api/v1/webhooks/endpoints/${endpointId}/messages?limit=10&cursor=page-1`,
      key: 'sak_stand',
    });
  });

  it('replay posts {} and tells that the message is queued again', async () => {
    const result = await run(['webhooks', 'replay', message.id, ...against()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Message ${message.id} (user.created) is queued again: pending.\n`);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{}' });
    const json = JSON.parse((await run(['webhooks', 'replay', message.id, '--json', ...against()])).stdout);
    expect(json).toMatchObject({ id: message.id, status: 'pending' });
  });

  it('reports an unknown endpoint as its known error', async () => {
    const result = await run(['webhooks', 'deliveries', '00000000-0000-4000-8000-000000000000', ...against()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^latchkey: WEBHOOK_ENDPOINT_NOT_FOUND: Webhook endpoint not found\./);
  });
});

describe('latchkey webhooks command line', () => {
  it.each([
    [['webhooks', 'delete'], /unknown action "delete"/],
    [['webhooks', 'create'], /create needs the endpoint URL/],
    [['webhooks', 'list', 'extra'], /unexpected argument "extra"/],
    [['webhooks', 'list', '--events', 'user.created'], /--events goes with `webhooks create`/],
    [['webhooks', 'replay', 'm1', '--limit', '5'], /--limit goes with `webhooks deliveries`/],
    [['webhooks', 'list', '--project', 'p1', '--admin-key', 'k'], /needs --api-url/],
    [['webhooks', 'list', '--api-url', 'http://127.0.0.1:1', '--project', 'p1'], /needs --admin-key/],
  ])('refuses %j with a usage error, exit code 2', async (args, message) => {
    const result = await run(args, { LATCHKEY_ADMIN_KEY: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('prints its help', async () => {
    const help = await run(['webhooks', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: latchkey webhooks <list\|create\|deliveries\|replay>/);
  });
});
