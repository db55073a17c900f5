/**
 * The dashboard as the service serves it: the page for every path of its own,
 * relative to a `<base href>` written per request (so it works behind a path
 * prefix), its assets, its config, the strict CSP, and refusals of paths that
 * are not its files. And the key its page signs in with: derived from the
 * secret, inserted once, accepted by the internal project.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headers as h, internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDashboard } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { startTestService, type TestService } from '../testing/index.js';
import { baseHrefFor, dashboardCsp } from './dashboard.js';
import { dashboardPublishableKey } from './dashboard-key.js';

let dir: string;
let service: TestService;
const config = { internalPublishableClientKey: 'pck_example', devOwner: { email: 'o@example.com', password: 'pw' } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'latchkey-dashboard-test-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><base href="./" /><script type="module" src="./assets/app-1.js"></script></head></html>',
  );
  await writeFile(join(dir, 'assets/app-1.js'), 'console.log(1)');
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  service = await startTestService({ dashboard: { dir, config: () => config } });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string) => service.fetch(path, { redirect: 'manual' });

describe('the dashboard page', () => {
  it('moves /dashboard to /dashboard/ relative to where it was asked (a proxy prefix stays in front)', async () => {
    const answer = await get('/dashboard');
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe('dashboard/');
  });

  it.each([
    ['/dashboard/', './'],
    ['/dashboard/projects', './'],
    ['/dashboard/projects/p1', '../'],
    ['/dashboard/projects/p1/users', '../../'],
    ['/dashboard/projects/p1/users/u1', '../../../'],
  ])('answers %s with the page, its base %s', async (path, base) => {
    const answer = await get(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.headers.get('cache-control')).toContain('no-store');
    expect(answer.headers.get('content-security-policy')).toBe(dashboardCsp);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    const html = await answer.text();
    expect(html).toContain(`<base href="${base}" />`);
    // The page's script, named relative to the base, resolves to the dashboard's assets from any depth.
    expect(new URL('./assets/app-1.js', new URL(base, `http://x${path}`)).pathname).toBe('/dashboard/assets/app-1.js');
  });

  it('has a CSP without inline or foreign scripts, and no framing', () => {
    expect(dashboardCsp).toContain("script-src 'self'");
    expect(dashboardCsp).not.toMatch(/script-src[^;]*unsafe/);
    expect(dashboardCsp).toContain("frame-ancestors 'none'");
    expect(dashboardCsp).toContain("connect-src 'self'");
  });

  it('serves assets with their type, cached for good', async () => {
    const answer = await get('/dashboard/assets/app-1.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/javascript');
    expect(answer.headers.get('cache-control')).toContain('immutable');
    expect(await answer.text()).toBe('console.log(1)');
    const icon = await get('/dashboard/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toContain('no-store');
  });

  it('serves its config, never cached', async () => {
    const answer = await get('/dashboard/config.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    expect(await answer.json()).toEqual(config);
  });

  it.each([
    '/dashboard/assets/missing.js',
    '/dashboard/..%2F..%2Fpackage.json',
    '/dashboard/assets/..%2F..%2F..%2Fetc%2Fpasswd.txt',
    '/dashboard/%E0%A4%A.js',
    '/dashboard/assets/%00.js',
  ])('answers %s with 404, never a file outside the build or a 500', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(404);
  });

  it("is the page only under /dashboard/: other paths stay the API's", async () => {
    expect((await get('/dashboards')).status).toBe(404);
    expect((await get('/api/v1/health')).status).toBe(200);
  });
});

describe('the dashboard key', () => {
  it('is derived from the secret: the same for the same secret, another for another', () => {
    const key = dashboardPublishableKey('a'.repeat(40));
    expect(key).toMatch(/^pck_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(dashboardPublishableKey('a'.repeat(40))).toBe(key);
    expect(dashboardPublishableKey('b'.repeat(40))).not.toBe(key);
  });

  it('is inserted once however often the service starts, and the internal project accepts it', async () => {
    const first = await prepareDashboard(service.storage, { secret: service.secret });
    const again = await prepareDashboard(service.storage, { secret: service.secret });
    expect(again.internalPublishableClientKey).toBe(first.internalPublishableClientKey);
    const sets = await dbOf(service.storage)
      .selectFrom('api_key_sets')
      .select('id')
      .where('project_id', '=', internalProjectId)
      .where('description', 'like', 'Dashboard sign-in%')
      .execute();
    expect(sets).toHaveLength(1);
    const answer = await service.fetch('/api/v1/projects/current', {
      headers: {
        [h.projectId]: internalProjectId,
        [h.accessType]: 'client',
        [h.publishableClientKey]: first.internalPublishableClientKey,
      },
    });
    expect(answer.status).toBe(200);
  });

  it('trusts the public URL for the internal project once, with the dashboard handler path', async () => {
    const publicUrl = 'https://auth.example.com/prefix/';
    await prepareDashboard(service.storage, { secret: service.secret, publicUrl });
    await prepareDashboard(service.storage, { secret: service.secret, publicUrl });
    const row = await dbOf(service.storage)
      .selectFrom('projects')
      .select('config')
      .where('id', '=', internalProjectId)
      .executeTakeFirstOrThrow();
    const domains = (row.config as { domains: { domain: string; handler_path: string }[] }).domains;
    expect(domains.filter((entry) => entry.domain === 'https://auth.example.com/prefix')).toEqual([
      { domain: 'https://auth.example.com/prefix', handler_path: '/prefix/dashboard/handler' },
    ]);
  });
});

describe('baseHrefFor', () => {
  it('climbs one directory per slash below /dashboard/', () => {
    expect(baseHrefFor('')).toBe('./');
    expect(baseHrefFor('a')).toBe('./');
    expect(baseHrefFor('a/b')).toBe('../');
    expect(baseHrefFor('a/b/c/')).toBe('../../../');
  });
});
