/**
 * The service root: a page linking to the dashboard, the API reference and,
 * in development, the dev mailbox, each only when this service serves it;
 * every other path, and the API, answer as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../testing/index.js';

let dir: string;
let development: TestService;
let production: TestService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'latchkey-root-page-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><base href="./" /></head></html>');
  development = await startTestService({ dashboard: { dir, config: () => ({ internalPublishableClientKey: 'pck' }) } });
  // Mail through an SMTP server (none listens: nothing is sent here): no dev mailbox, and no dashboard.
  production = await startTestService({ smtpUrl: 'smtp://127.0.0.1:9', development: false });
}, 60_000);

afterAll(async () => {
  await Promise.all([development?.close(), production?.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** The links of a page, as `[href, text]`. */
function links(html: string): [string, string][] {
  return [...html.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((match) => [match[1]!, match[2]!]);
}

describe('GET /', () => {
  it('links the dashboard, the API reference and the dev mailbox in development, each of which answers', async () => {
    const answer = await development.fetch('/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    const found = links(await answer.text());
    expect(found).toEqual([
      ['/dashboard/', 'Dashboard'],
      ['/api/v1/docs', 'API reference'],
      ['/mailbox', 'Dev mailbox'],
    ]);
    for (const [href] of found) expect((await development.fetch(href)).status, href).toBe(200);
  });

  it('links only the API reference where the service serves nothing else', async () => {
    const answer = await production.fetch('/');
    expect(answer.status).toBe(200);
    expect(links(await answer.text())).toEqual([['/api/v1/docs', 'API reference']]);
    expect((await production.fetch('/mailbox')).status).toBe(404);
  });

  it('leaves every other path and the API as they were', async () => {
    const unknown = await development.fetch('/nothing-here');
    expect([unknown.status, await unknown.text()]).toEqual([404, 'Not found']);
    const api = await development.fetch('/api/v1');
    expect(api.status).toBe(200);
    expect(await api.text()).toMatch(/^Welcome to the Latchkey API endpoint!/);
    const missingRoute = await development.fetch('/api/v1/no-such-route');
    expect(missingRoute.status).toBe(404);
  });
});
