// `npm run build`: every package, the PGlite seed and the demo, each step only when its
// inputs changed, so a second build of an unchanged tree takes about a second.
//
//   1. `tsc -b`: incremental by itself (tsbuildinfo files).
//   2. packages/react/dist/styles.css from src/styles (milliseconds).
//   3. the PGlite seed: rebuilt only when the migrations or PGlite changed (make-seed.mjs).
//   4. the demo's Vite build: skipped when none of its inputs changed, compared by
//      content hash with the last build (node_modules/.cache/latchkey/demo-build.json).
//
// `node scripts/build.mjs --force` rebuilds the seed and the demo anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const force = process.argv.includes('--force');

/** What the demo's bundle is made of: its own files and the sources of the packages it bundles. */
const demoInputs = [
  'apps/demo/src',
  'apps/demo/public',
  'apps/demo/index.html',
  'apps/demo/vite.config.ts',
  'apps/demo/package.json',
  'packages/protocol/src',
  'packages/protocol/package.json',
  'packages/js/src',
  'packages/js/package.json',
  'packages/react/src',
  'packages/react/package.json',
  'package-lock.json',
];
const demoOutput = join(root, 'apps/demo/dist/index.html');
const demoStamp = join(root, 'node_modules/.cache/latchkey/demo-build.json');

/** Builds what changed; true when every step succeeded. */
export function build() {
  return (
    step('tsc -b', [join(root, 'node_modules/typescript/bin/tsc'), '-b']) &&
    step('styles', [join(root, 'packages/react/scripts/build-styles.mjs')]) &&
    step('seed', [join(root, 'packages/server/scripts/make-seed.mjs'), ...(force ? ['--force'] : [])]) &&
    buildDemo()
  );
}

function buildDemo() {
  const fingerprint = hashInputs(demoInputs);
  if (!force && existsSync(demoOutput) && readStamp() === fingerprint) {
    console.log('latchkey: the demo build is current (its inputs are unchanged)');
    return true;
  }
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  if (!step('demo', [vite, 'build', '--logLevel', 'warn'], join(root, 'apps/demo'))) return false;
  mkdirSync(dirname(demoStamp), { recursive: true });
  writeFileSync(demoStamp, JSON.stringify({ fingerprint }));
  console.log('latchkey: built the demo (apps/demo/dist)');
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

function readStamp() {
  try {
    return JSON.parse(readFileSync(demoStamp, 'utf8')).fingerprint;
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = build() ? 0 : 1;
}
