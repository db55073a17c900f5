#!/usr/bin/env node
/**
 * `latchkey dev` cold start: the built CLI (`node packages/cli/dist/bin.js dev
 * --port <free port> --data-dir <dir> --json`) spawned again and again, on a new
 * data directory (first start: the database is made from the built PGlite seed)
 * and on the same directory once more (second start). For each, the time from
 * spawn to the first `GET /api/v1/health` answered 200 (polled every 10 ms) and
 * to the JSON line on stdout (printed once the service answered with the dev
 * project's keys: what a script waiting on `latchkey dev` waits for), with the
 * median and the max. Where the time goes comes from the CLI's own start-up
 * steps (`LATCHKEY_LOG_LEVEL=debug` logs each with the ms since the process
 * started); `--cpu-prof` also profiles one more first and second start (not
 * counted in the timings: the profiler slows them) and sorts their samples,
 * up to the moment the service answered, into module loading, PGlite, GC, idle
 * and the rest.
 *
 *   npm run bench:cold-start             (builds first)
 *   node bench/cold-start.mjs --cpu-prof
 *
 *   BENCH_RUNS  starts of each kind (default 7)
 *
 * Figures, not a test.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable } from './table.mjs';

const runs = Number(process.env.BENCH_RUNS || 7);
const profile = process.argv.includes('--cpu-prof');
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/dist/bin.js');

console.log(
  `latchkey dev cold start, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()[0].toFixed(2)}, ` +
    `${runs} starts of each kind\n`,
);

// Data directories are removed at the end: deleting 40 MB between two starts makes the next start's writes
// wait on the disk (seen here: 1 s instead of 0.1 s), a cost of the bench rather than of `latchkey dev`.
const dataDirs = [];
const newDataDir = async () => {
  dataDirs.push(await mkdtemp(join(tmpdir(), 'latchkey-cold-start-')));
  return dataDirs.at(-1);
};
const results = { first: [], second: [] };
const profiles = {};
try {
  for (let run = 0; run < runs; run++) {
    const dataDir = await newDataDir();
    results.first.push(await start(dataDir));
    results.second.push(await start(dataDir));
  }
  if (profile) {
    const dataDir = await newDataDir();
    profiles.first = (await start(dataDir, { profile: true })).profile;
    profiles.second = (await start(dataDir, { profile: true })).profile;
  }
} finally {
  for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
}

const figures = (list, key) => {
  const sorted = list.map((result) => result[key]).sort((a, b) => a - b);
  return [median(sorted), sorted.at(-1)];
};
console.log(
  markdownTable(
    ['start', 'health 200: median ms', 'max ms', 'JSON line: median ms', 'max ms', 'CPU ms: median'],
    Object.entries(results).map(([kind, list]) => [
      kind === 'first' ? 'first (new data dir)' : 'second (same data dir)',
      ...figures(list, 'health'),
      ...figures(list, 'line'),
      list.every((result) => result.cpu !== null) ? figures(list, 'cpu')[0] : 'n/a',
    ]),
    1,
  ).join('\n'),
);

const stepNames = [...new Set(Object.values(results).flatMap((list) => list.flatMap((r) => Object.keys(r.steps))))];
if (stepNames.length > 0) {
  console.log('\nStart-up steps (median ms since the process started, from LATCHKEY_LOG_LEVEL=debug):\n');
  console.log(
    markdownTable(
      ['step', 'first start', 'second start'],
      stepNames.map((step) => [step, ...['first', 'second'].map((kind) => medianStep(results[kind], step))]),
      1,
    ).join('\n'),
  );
}

for (const [kind, summary] of Object.entries(profiles)) {
  if (!summary) continue;
  console.log(`\nCPU profile of a ${kind} start, to the moment it answered (ms of main-thread samples):\n`);
  console.log(markdownTable(['category', 'ms'], summary, 1).join('\n'));
}

/** One start: spawn, poll /health, read the JSON line and the steps, stop with SIGTERM. */
async function start(dataDir, options = {}) {
  const port = await freePort();
  const profileDir = options.profile ? await mkdtemp(join(tmpdir(), 'latchkey-cold-start-prof-')) : null;
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const args = ['dev', '--port', String(port), '--data-dir', dataDir, '--json'];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
    cwd: root,
    env: { ...process.env, LATCHKEY_SECRET: '', DATABASE_URL: '', LATCHKEY_LOG_LEVEL: 'debug' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const line = new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(performance.now() - started);
    });
    exited.then(({ code }) => reject(new Error(`latchkey dev exited (${code}) before its JSON line:\n${stderr}`)));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const health = pollHealth(`http://127.0.0.1:${port}/api/v1/health`, started, exited);
  try {
    const result = { line: Math.round(await line), health: Math.round(await health), cpu: await cpuMs(child.pid) };
    JSON.parse(stdout.slice(0, stdout.indexOf('\n')));
    child.kill('SIGTERM');
    const { code } = await exited;
    if (code !== 0) throw new Error(`latchkey dev stopped with exit code ${code}:\n${stderr}`);
    result.steps = steps(stderr);
    if (profileDir) result.profile = summarizeProfile(await readProfile(profileDir), result.steps.serving);
    return result;
  } finally {
    child.kill('SIGKILL');
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
  }
}

/**
 * CPU time the process has used so far (user and system, every thread), in ms,
 * from /proc (Linux; null elsewhere): a figure a busy machine disturbs less than
 * wall-clock time.
 */
async function cpuMs(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    const ticksPerSecond = 100; // USER_HZ: 100 on every Linux Node supports
    return Math.round(((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond);
  } catch {
    return null;
  }
}

/** ms from `started` to the first 200 of `url`; refused connections are retried every 10 ms. */
async function pollHealth(url, started, exited) {
  let gone = false;
  exited.then(() => {
    gone = true;
  });
  while (!gone) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('latchkey dev exited before /health answered');
}

/** The CLI's debug lines `{"msg":"start step","step":...,"ms":...}`, as { step: ms }. */
function steps(stderr) {
  const found = {};
  for (const text of stderr.split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      const entry = JSON.parse(text);
      if (entry.msg === 'start step' && typeof entry.step === 'string') found[entry.step] = entry.ms;
    } catch {
      // Not a log line.
    }
  }
  return found;
}

function medianStep(list, step) {
  const values = list
    .map((result) => result.steps[step])
    .filter((value) => typeof value === 'number')
    .sort((a, b) => a - b);
  return values.length === 0 ? '' : Math.round(median(values));
}

function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function readProfile(dir) {
  const [file] = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'));
  return file ? JSON.parse(await readFile(join(dir, file), 'utf8')) : null;
}

/**
 * CPU time by category, ms: each sample goes to the category of the innermost
 * frame that has one (a PGlite call made while a module loads counts as PGlite).
 * Samples after `untilMs` (from the profile's start, about the process's) are left out.
 */
function summarizeProfile(cpuProfile, untilMs = Number.POSITIVE_INFINITY) {
  if (!cpuProfile) return null;
  const nodes = new Map(cpuProfile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of cpuProfile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const totals = new Map();
  let at = 0;
  for (let i = 0; i < cpuProfile.samples.length; i++) {
    at += cpuProfile.timeDeltas[i] / 1000;
    if (at > untilMs) break;
    let category = null;
    for (let id = cpuProfile.samples[i]; id !== undefined && !category; id = parents.get(id)) {
      category = categoryOf(nodes.get(id).callFrame);
    }
    category ??= 'other JavaScript and native';
    totals.set(category, (totals.get(category) ?? 0) + (cpuProfile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([category, ms]) => [category, Math.round(ms)]);
}

function categoryOf({ url, functionName }) {
  if (functionName === '(idle)') return 'idle (waiting on I/O, threads or timers)';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (url.startsWith('wasm://') || url.includes('@electric-sql/pglite'))
    return 'PGlite (its JavaScript and WebAssembly)';
  if (url.includes('@node-rs/argon2')) return 'argon2';
  if (url.startsWith('node:internal/modules') || functionName === 'compileSourceTextModule') return 'module loading';
  if (url.includes('/node_modules/')) return 'other dependencies';
  if (url.includes('/packages/')) return 'Latchkey';
  return null;
}
