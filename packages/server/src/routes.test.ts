/**
 * The route table is the API: every route is declared (access, schemas,
 * errors), every declared route is served and documented, and no feature
 * reads bodies, checks access or builds SQL by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { accessTypes, isKnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSchema, isViewSet } from './http/route.js';
import { apiRoutes } from './routes.js';
import { call } from './test-support/api.js';
import { startTestService, type TestService } from './testing/index.js';

const srcDir = new URL('.', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('the route table', () => {
  it.each(apiRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s declares access, summary, tag, answer and known errors',
    (_, route) => {
      expect([...accessTypes, 'none', 'optional']).toContain(route.access);
      expect(route.path).toMatch(/^\/[a-z0-9/:._-]*$/i);
      expect(route.summary.length).toBeGreaterThan(10);
      expect(route.tag).toMatch(/^[a-z-]+$/);
      expect(route.answer === 'text' || isSchema(route.answer) || isViewSet(route.answer)).toBe(true);
      for (const code of route.errors) expect(isKnownErrorCode(code), code).toBe(true);
      if (route.params) {
        const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
        expect(Object.keys(route.params.shape).sort()).toEqual(names.sort());
      }
    },
  );

  it('has one route per method and path', () => {
    const keys = apiRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('documents every route, and nothing else, in /api/v1/openapi.json', async () => {
    const answer = await call(service, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const documented = Object.entries(answer.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const declared = apiRoutes.map((route) => `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual(declared.sort());
  });
});

describe('the layers', () => {
  const files = sourceFiles(srcDir).map((path) => ({ path: relative(srcDir, path), text: readFileSync(path, 'utf8') }));

  it('finds the sources it checks', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.some((file) => file.path === 'users/users-routes.ts')).toBe(true);
  });

  it('names every file of routes after its feature folder, and takes the route table from them', () => {
    // `<folder>/<folder>-routes.ts`, or `<folder>/<folder>-<part>-routes.ts` for a second set.
    const routeFiles = files.filter((file) => /-routes\.ts$/.test(file.path) && !file.path.startsWith('http/'));
    const misnamed = routeFiles.filter((file) => {
      const [folder, name] = file.path.split('/');
      return !(name === `${folder}-routes.ts` || name?.startsWith(`${folder}-`));
    });
    expect(misnamed.map((file) => file.path)).toEqual([]);
    const table = files.find((file) => file.path === 'routes.ts')?.text ?? '';
    const sources = [...table.matchAll(/from '\.\/([a-z-]+\/[a-z-]+)\.js'/g)].map((match) => `${match[1]}.ts`);
    // The OAuth flow and the development provider keep their routes beside the flow they serve.
    const besideTheirFlow = ['oauth/oauth-flow.ts', 'oauth/dev-provider.ts', 'http/route.ts'];
    expect(sources.filter((path) => !path.endsWith('-routes.ts') && !besideTheirFlow.includes(path))).toEqual([]);
  });

  it('leaves body reading, access checks and views to the route wrapper', () => {
    const routeFiles = files.filter((file) => /-routes\.ts$/.test(file.path) && !file.path.startsWith('http/'));
    expect(routeFiles.length).toBeGreaterThanOrEqual(6);
    for (const file of routeFiles) {
      expect(file.text, file.path).not.toMatch(/\breadJson\(|\breadForm\(|\brequireAccess|\bauthenticate\(/);
      expect(file.text, file.path).not.toMatch(/accessType === 'client' \? client\w*View/);
    }
  });

  it('builds SQL only in storage/ and *-store.ts files', () => {
    const offenders = files
      .filter((file) => /from 'kysely'/.test(file.text))
      .map((file) => file.path)
      .filter(
        (path) => !path.startsWith('storage/') && !path.endsWith('-store.ts') && !path.startsWith('test-support/'),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps the query handle out of the public Storage', () => {
    const storage = files.find((file) => file.path === 'storage/open-storage.ts')!.text;
    const start = storage.indexOf('export interface Storage {');
    const publicShape = storage.slice(start, storage.indexOf('\n}', start));
    expect(publicShape).toMatch(/close\(\)/);
    expect(publicShape).not.toMatch(/\bdb\b/);
    const index = files.find((file) => file.path === 'index.ts')!.text;
    expect(index).not.toMatch(/dbOf|Kysely/);
  });
});
