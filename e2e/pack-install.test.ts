/**
 * The packages as a release publishes them. `npm pack` packs every workspace
 * package; an empty app outside the repository installs the tarballs (none of
 * ours from a registry, install scripts disabled) and uses them as the README
 * does: `npx latchkey dev --json`, the SDK against that service, `@latchkey/react`
 * and its stylesheet, `@latchkey/next`'s server and middleware entries beside
 * the `next` it names as a peer, and the type declarations through TypeScript. A package
 * that works only inside the workspace fails here before it can be published.
 *
 * Needs the built packages (`npm run build`; `npm test` builds first).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const workspaces = [
  'packages/protocol',
  'packages/js',
  'packages/react',
  'packages/server',
  'packages/cli',
  'packages/next',
  'apps/dashboard',
];
const ours = (name: string) => name === 'latchkey' || name.startsWith('@latchkey/');

interface Packed {
  name: string;
  filename: string;
}
interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  exports?: unknown;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
interface DevInfo {
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  dashboardUrl: string;
}

let work: string;
let app: string;
let packed: Packed[];
let dev: ChildProcess | undefined;

beforeAll(async () => {
  for (const built of [
    'packages/cli/dist/bin.js',
    'packages/server/dist/pglite-seed.tar.gz',
    'packages/react/dist/styles.css',
    'apps/dashboard/dist/index.html',
  ]) {
    if (!existsSync(join(repoRoot, built))) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  }
  work = await mkdtemp(join(tmpdir(), 'latchkey-pack-'));
  const tarballs = join(work, 'tarballs');
  app = join(work, 'app');
  await mkdir(tarballs);
  await mkdir(app);

  const workspaceArgs = workspaces.flatMap((workspace) => ['-w', workspace]);
  packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', tarballs, ...workspaceArgs], repoRoot));
  expect(packed.map((p) => p.name).sort()).toEqual([
    '@latchkey/dashboard',
    '@latchkey/js',
    '@latchkey/next',
    '@latchkey/protocol',
    '@latchkey/react',
    '@latchkey/server',
    'latchkey',
  ]);

  const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${join(tarballs, p.filename)}`]));
  const reactManifest = readJson<{ devDependencies: Record<string, string> }>(
    join(repoRoot, 'packages/react/package.json'),
  );
  const pick = (name: string) => reactManifest.devDependencies[name]!;
  // The Next release the demo is built with (the current major).
  const nextVersion = readJson<{ devDependencies: Record<string, string> }>(
    join(repoRoot, 'apps/next-demo/package.json'),
  ).devDependencies.next!;
  await writeJson(join(app, 'package.json'), {
    name: 'pack-install-app',
    private: true,
    type: 'module',
    dependencies: { ...dependencies, react: pick('react'), 'react-dom': pick('react-dom'), next: nextVersion },
    devDependencies: { '@types/react': pick('@types/react'), '@types/node': '^20.19.0' },
    // Our packages depend on each other by version range: these tarballs satisfy them, never a registry.
    overrides: Object.fromEntries(packed.map((p) => [p.name, `$${p.name}`])),
  });
  await run(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      // Any request for an @latchkey package from a registry fails at once instead of finding something.
      '--@latchkey:registry=http://127.0.0.1:9/',
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=1000',
      '--fetch-retry-maxtimeout=2000',
    ],
    app,
  );
}, 180_000);

afterAll(async () => {
  await stop(dev);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('packed packages installed into an empty app', () => {
  it('come from the tarballs, none from a registry, and nothing in the tree needs an install script', () => {
    const lock = readJson<{ packages: Record<string, { resolved?: string; hasInstallScript?: boolean }> }>(
      join(app, 'package-lock.json'),
    );
    const installed = Object.entries(lock.packages).filter(([path]) => ours(path.replace(/^.*node_modules\//, '')));
    const fromTarballs = installed.filter(([, entry]) => entry.resolved?.startsWith('file:')).map(([path]) => path);
    expect(installed.map(([path]) => path).sort()).toEqual(packed.map((p) => `node_modules/${p.name}`).sort());
    expect(fromTarballs.sort()).toEqual(packed.map((p) => `node_modules/${p.name}`).sort());
    expect(Object.keys(lock.packages).filter((path) => lock.packages[path]!.hasInstallScript)).toEqual([]);
  });

  it('have publishable manifests: exports, types and bin that exist, version ranges, no lifecycle scripts', () => {
    for (const { name } of packed) {
      const dir = join(app, 'node_modules', name);
      const manifest = readJson<Manifest>(join(dir, 'package.json'));
      const problems: string[] = [];
      for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
        if (manifest.scripts?.[script]) problems.push(`has a ${script} script`);
      }
      for (const [dependency, spec] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        if (/^(file|link|workspace|git\+?\w*|https?):|^[./]/.test(spec)) problems.push(`${dependency}: ${spec}`);
        if (ours(dependency) && !/^\^\d+\.\d+\.\d+$/.test(spec))
          problems.push(`${dependency} is not a ^range: ${spec}`);
      }
      for (const target of exportTargets(manifest.exports)) {
        if (!targetExists(dir, target)) problems.push(`export ${target} is not in the tarball`);
      }
      for (const [command, file] of Object.entries(manifest.bin ?? {})) {
        if (!existsSync(join(dir, file))) problems.push(`bin ${command}: ${file} is not in the tarball`);
      }
      if (!manifest.exports) problems.push('has no exports');
      expect(problems, name).toEqual([]);
    }
  });

  it('run `npx latchkey dev --json`, and the SDK signs up, signs in and lists the user against it', async () => {
    dev = spawn('npx', ['--no', 'latchkey', 'dev', '--json', '--port', '0', '--data-dir', join(work, 'data')], {
      cwd: app,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so stopping it stops npx and the service
    });
    const info = await firstLine(dev);
    expect(info.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The CLI serves the dashboard from its dependency's build.
    expect(info.dashboardUrl).toBe(`${info.apiUrl}/dashboard/`);
    const dashboard = await fetch(info.dashboardUrl);
    expect(dashboard.status).toBe(200);
    const script = /src="\.\/(assets\/index-[^"]+\.js)"/.exec(await dashboard.text())?.[1];
    expect((await fetch(`${info.dashboardUrl}${script}`)).status).toBe(200);

    await writeFile(join(app, 'sdk.mjs'), sdkScript);
    const answer = JSON.parse(await run('node', ['sdk.mjs'], app, { LATCHKEY_DEV: JSON.stringify(info) }));
    expect(answer).toEqual({
      signedUp: answer.email,
      signedIn: answer.email,
      listed: [answer.email],
      email: expect.stringMatching(/@example\.com$/),
    });
  });

  it('import @latchkey/react with react installed, and resolve its stylesheet to a file', async () => {
    await writeFile(join(app, 'react.mjs'), reactScript);
    const answer = JSON.parse(await run('node', ['react.mjs'], app));
    expect(answer.exports).toEqual(expect.arrayContaining(['LatchkeyProvider', 'Handler', 'SignIn', 'useUser']));
    expect(answer.styles).toMatch(/node_modules\/@latchkey\/react\/dist\/styles\.css$/);
    expect(answer.stylesBytes).toBeGreaterThan(1000);
  });

  it('import @latchkey/next beside next: the server and middleware entries load, and the middleware redirects', async () => {
    await writeFile(join(app, 'next.mjs'), nextScript);
    const answer = JSON.parse(await run('node', ['next.mjs'], app));
    expect(answer.server).toEqual(expect.arrayContaining(['getUser', 'signOut', 'LatchkeyProvider', 'HandlerPage']));
    expect(answer.middleware).toEqual(['latchkeyMiddleware']);
    expect(answer.files).toEqual([
      expect.stringMatching(/node_modules\/@latchkey\/next\/dist\/server\.js$/),
      expect.stringMatching(/node_modules\/@latchkey\/next\/dist\/middleware\.js$/),
    ]);
    // A signed-out visit to a protected route, as the proxy answers it (no cookies: no call to the service).
    expect(answer.redirect).toEqual({
      status: 307,
      location: 'http://localhost/handler/sign-in?after_auth_return_to=%2Faccount',
    });
  });

  it('give TypeScript the declarations of every entry (NodeNext, declarations checked too)', async () => {
    await writeFile(join(app, 'entries.ts'), typesSource);
    await writeJson(join(app, 'tsconfig.json'), {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      files: ['entries.ts'],
    });
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    await expect(run(process.execPath, [tsc, '-p', app], app)).resolves.toBe('');
  });

  it('give a Next app’s TypeScript the declarations of @latchkey/next (create-next-app’s settings)', async () => {
    await writeFile(join(app, 'next-entries.ts'), nextTypesSource);
    await writeJson(join(app, 'tsconfig.next.json'), {
      compilerOptions: {
        target: 'ES2017',
        lib: ['dom', 'dom.iterable', 'esnext'],
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        esModuleInterop: true,
        isolatedModules: true,
        skipLibCheck: true,
      },
      files: ['next-entries.ts'],
    });
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    await expect(run(process.execPath, [tsc, '-p', 'tsconfig.next.json'], app)).resolves.toBe('');
  });
});

/** Signs up and in with `@latchkey/js`, and lists the user with `@latchkey/js/server`, as the README shows. */
const sdkScript = `
import { ClientApp } from '@latchkey/js';
import { ServerApp } from '@latchkey/js/server';

const dev = JSON.parse(process.env.LATCHKEY_DEV);
const email = 'packed-' + Date.now() + '@example.com';
const password = 'correct-horse-battery';
const client = (tokenStore) =>
  new ClientApp({ baseUrl: dev.apiUrl, projectId: dev.projectId, publishableClientKey: dev.publishableClientKey, tokenStore });

const first = client('memory');
await first.signUpWithCredential({ email, password, noRedirect: true });
const signedUp = (await first.getUser())?.primaryEmail;
const second = client('memory');
await second.signInWithCredential({ email, password, noRedirect: true });
const signedIn = (await second.getUser())?.primaryEmail;

const server = new ServerApp({ baseUrl: dev.apiUrl, projectId: dev.projectId, secretServerKey: dev.secretServerKey });
const listed = (await server.listUsers({ query: email })).items.map((user) => user.primaryEmail);
console.log(JSON.stringify({ email, signedUp, signedIn, listed }));
`;

const reactScript = `
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const react = await import('@latchkey/react');
const styles = fileURLToPath(import.meta.resolve('@latchkey/react/styles.css'));
console.log(JSON.stringify({ exports: Object.keys(react), styles, stylesBytes: statSync(styles).size }));
`;

/** `@latchkey/next`'s two entries as an app's server code and `proxy.ts` import them, outside Next. */
const nextScript = `
import { fileURLToPath } from 'node:url';
import { NextRequest } from 'next/server.js';

const server = await import('@latchkey/next/server');
const middleware = await import('@latchkey/next/middleware');
const files = ['@latchkey/next/server', '@latchkey/next/middleware'].map((entry) => fileURLToPath(import.meta.resolve(entry)));
const proxy = middleware.latchkeyMiddleware({
  protect: ['/account'],
  config: { baseUrl: 'http://127.0.0.1:9', projectId: 'project', publishableClientKey: 'pck' },
});
const response = await proxy(new NextRequest('http://localhost/account'));
const redirect = { status: response.status, location: response.headers.get('location') };
console.log(JSON.stringify({ server: Object.keys(server), middleware: Object.keys(middleware), files, redirect }));
`;

const typesSource = `
import { ClientApp } from '@latchkey/js';
import { AdminApp, ServerApp } from '@latchkey/js/server';
import { KnownError } from '@latchkey/protocol';
import { Handler, LatchkeyProvider, useUser } from '@latchkey/react';
import { createService } from '@latchkey/server';

export const entries = [ClientApp, AdminApp, ServerApp, KnownError, Handler, LatchkeyProvider, useUser, createService];
`;

/**
 * `@latchkey/next` as a Next app's code uses it. Checked with the settings `create-next-app` writes
 * (`skipLibCheck` among them: Next's own declarations need its build's types); the expected error
 * proves the declarations resolved (had they fallen back to \`any\`, it would be unused and fail).
 */
const nextTypesSource = `
import { latchkeyMiddleware } from '@latchkey/next/middleware';
import { getUser, HandlerPage, LatchkeyProvider, signOut } from '@latchkey/next/server';
import type { NextRequest, NextResponse } from 'next/server';

export async function email(): Promise<string | null> {
  const user = await getUser({ or: 'redirect', returnTo: '/account' });
  return user.primaryEmail;
}
export const proxy: (request: NextRequest) => Promise<NextResponse> = latchkeyMiddleware({ protect: ['/account'] });
// @ts-expect-error: the routes to protect are paths, patterns or a function of the path
latchkeyMiddleware({ protect: 42 });
export const parts = [HandlerPage, LatchkeyProvider, signOut];
`;

/** Every path an `exports` map points at, whatever the nesting of its conditions. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports && typeof exports === 'object') return Object.values(exports).flatMap(exportTargets);
  return [];
}

/** True when `target` names a file in `dir`; a `*` pattern needs one matching file. */
function targetExists(dir: string, target: string): boolean {
  if (!target.includes('*')) return existsSync(join(dir, target));
  const [folder, suffix] = [target.slice(0, target.lastIndexOf('/')), target.slice(target.indexOf('*') + 1)];
  return existsSync(join(dir, folder)) && readdirSync(join(dir, folder)).some((file) => file.endsWith(suffix));
}

/** The environment without what `npm test` passes down (npm_config_*, NODE_ENV), so npm acts as in an app. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_ENV' && key !== 'INIT_CWD'),
  );
  return { ...env, ...extra };
}

async function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd,
      env: cleanEnv(extraEnv),
      timeout: 150_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

function firstLine(child: ChildProcess): Promise<DevInfo> {
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`latchkey dev did not start in 60 s:\n${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as DevInfo);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`latchkey dev exited with ${code}:\n${stderr}`));
    });
  });
}

/** Stops a detached child and everything it started; SIGKILL after 5 s. */
async function stop(child: ChildProcess | undefined) {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function writeJson(path: string, value: unknown) {
  return writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
