// `npm run build`: every package, the PGlite seed, the demo and the dashboard, each step only when its
// inputs changed, so a second build of an unchanged tree takes about a second.
//
//   1. `tsc -b`: incremental by itself (tsbuildinfo files).
//   2. packages/react/dist/styles.css from src/styles (milliseconds).
//   3. the PGlite seed: rebuilt only when the migrations or PGlite changed (make-seed.mjs).
//   4. the demo's and the dashboard's Vite builds: each skipped when none of its inputs
//      changed, compared by content hash with the last build (node_modules/.cache/latchkey/).
//
// `node scripts/build.mjs --force` rebuilds the seed and the apps anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const force = process.argv.includes('--force');

/** What an app's bundle is made of besides its own folder: the sources of the packages it bundles. */
const packageInputs = [
  'packages/protocol/src',
  'packages/protocol/package.json',
  'packages/js/src',
  'packages/js/package.json',
  'packages/react/src',
  'packages/react/package.json',
  'package-lock.json',
];

/** The Vite apps: their folder (its src, public, index.html, vite.config.ts and package.json count). */
const apps = [
  { name: 'demo', dir: 'apps/demo' },
  { name: 'dashboard', dir: 'apps/dashboard' },
];

/** Builds what changed; true when every step succeeded. */
export function build() {
  return (
    step('tsc -b', [join(root, 'node_modules/typescript/bin/tsc'), '-b']) &&
    step('styles', [join(root, 'packages/react/scripts/build-styles.mjs')]) &&
    step('seed', [join(root, 'packages/server/scripts/make-seed.mjs'), ...(force ? ['--force'] : [])]) &&
    apps.every(buildApp)
  );
}

function buildApp({ name, dir }) {
  const inputs = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((file) => `${dir}/${file}`);
  const fingerprint = hashInputs([...inputs, ...packageInputs]);
  const output = join(root, dir, 'dist/index.html');
  const stamp = join(root, `node_modules/.cache/latchkey/${name}-build.json`);
  if (!force && existsSync(output) && readStamp(stamp) === fingerprint) {
    console.log(`latchkey: the ${name} build is current (its inputs are unchanged)`);
    return true;
  }
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  if (!step(name, [vite, 'build', '--logLevel', 'warn'], join(root, dir))) return false;
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, JSON.stringify({ fingerprint }));
  console.log(`latchkey: built the ${name} (${dir}/dist)`);
  return true;
}

function step(name, args, cwd = root) {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (result.status === 0) return true;
  console.error(`build: ${name} failed (exit ${result.status ?? result.signal}).`);
  return false;
}

/** One hash over the paths and contents of every file under `inputs` (missing ones count as absent). */
function hashInputs(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of listFiles(join(root, input))) {
      hash.update(`${relative(root, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

function listFiles(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => listFiles(join(path, entry.name)));
}

function readStamp(stamp) {
  try {
    return JSON.parse(readFileSync(stamp, 'utf8')).fingerprint;
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = build() ? 0 : 1;
}
