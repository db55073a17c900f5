/**
 * `latchkey rotate-secret` on a data directory made by `latchkey dev`: a user
 * signed up before signs in after, with the directory's secret file moved to
 * the new secret, and it says what it re-sealed, a webhook endpoint's secret
 * included; a wrong current secret changes nothing; a weak new one is
 * refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo } from './internal/format.js';
import { ensureBuilt, runCli, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-rotate-'));
const dataDir = join(scratch, 'dev');
beforeAll(ensureBuilt, 180_000);
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function dev(): Promise<{ info: DevInfo; stop: () => Promise<unknown> }> {
  const cli = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
  const { line } = await cli.firstLine();
  return { info: JSON.parse(line) as DevInfo, stop: () => cli.stop() };
}

function signIn(info: DevInfo, path: 'sign-up' | 'sign-in') {
  return fetch(`${info.apiUrl}/api/v1/auth/password/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': info.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': info.publishableClientKey,
    },
    body: JSON.stringify({ email: 'rotated@example.com', password: 'correct-horse-1' }),
  });
}

/** Registers a webhook endpoint of the dev project (its secret is sealed with the master secret). */
function addWebhookEndpoint(info: DevInfo) {
  return fetch(`${info.apiUrl}/api/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': info.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': info.superSecretAdminKey,
    },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
  });
}

async function rotate(env: Record<string, string>) {
  const cli = runCli(['rotate-secret', '--data-dir', dataDir], env);
  const { code } = await cli.exited;
  return { code, stderr: cli.stderr() };
}

describe('latchkey rotate-secret', () => {
  it('moves a data directory to a new secret; the same user signs in afterwards', async () => {
    const first = await dev();
    expect((await signIn(first.info, 'sign-up')).status).toBe(200);
    expect((await addWebhookEndpoint(first.info)).status).toBe(200);
    await first.stop();
    const oldSecret = readFileSync(join(dataDir, 'secret'), 'utf8').trim();

    const weak = await rotate({ LATCHKEY_NEW_SECRET: 'x'.repeat(40) });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/LATCHKEY_NEW_SECRET is too weak/);

    const wrong = await rotate({
      LATCHKEY_SECRET: 'not the secret of this data directory!!',
      LATCHKEY_NEW_SECRET: 'a strong new secret: Zq8#kP2@vL9$wX4&',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/not the master secret of this database; nothing was changed/);
    expect(readFileSync(join(dataDir, 'secret'), 'utf8').trim()).toBe(oldSecret);

    const newSecret = 'a strong new secret: Zq8#kP2@vL9$wX4&';
    const moved = await rotate({ LATCHKEY_NEW_SECRET: newSecret });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/^Re-sealed \d+ signing keys, .* and 1 webhook endpoints in /);
    expect(readFileSync(join(dataDir, 'secret'), 'utf8').trim()).toBe(newSecret);

    const second = await dev();
    expect((await signIn(second.info, 'sign-in')).status).toBe(200);
    await second.stop();
  }, 120_000);
});
