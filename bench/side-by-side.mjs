/**
 * `npm run bench -- --peers`: Latchkey and Better Auth side by side on the
 * same PostgreSQL, the same load (autocannon, one worker thread) against
 * both, interleaved (Latchkey, Better Auth, Latchkey, Better Auth, ... for
 * each scenario), with the machine's floors measured before and after in
 * the same run. Prints one table and writes it as JSON and Markdown under
 * `bench/results/`. Better Auth lives in `bench/peers/`, installed here on
 * first use, never by the root install.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measureFloors, serverDependency, serverDependencyVersion } from './floors.mjs';
import { startLatchkey } from './latchkey-target.mjs';
import { markdownTable } from './table.mjs';

const peersDir = fileURLToPath(new URL('peers/', import.meta.url));
const nextHeaders = fileURLToPath(new URL('next-headers.cjs', import.meta.url));
const underLoad = 'get-session under sign-up load';
const scenarios = ['sign-up', 'sign-in', 'get-session', 'sign-out', 'refresh', underLoad];

export async function sideBySide({ server, testing, databaseUrl, duration, connections, rounds, signOuts }) {
  installPeers();
  const { startBetterAuth } = await import('./peers/better-auth.mjs');
  const started = new Date();
  const loadBefore = loadavg();
  const environment = await describeEnvironment(databaseUrl);
  console.log(
    `Side-by-side bench, ${started.toISOString()}, Node ${process.version}, ${environment.machine.cores} cores ` +
      `(${environment.machine.cpu}), load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')}, ` +
      `${connections} connections, ${duration} s per run (sign-out: ${signOuts} requests), ${rounds} rounds\n`,
  );

  const floorRounds = [await floorRound(databaseUrl, duration, connections)];
  const targets = [];
  const results = Object.fromEntries(scenarios.map((scenario) => [scenario, {}]));
  try {
    targets.push(await startLatchkey({ server, testing, databaseUrl }));
    targets.push(await startBetterAuth({ databaseUrl }));
    for (const target of targets) {
      const { request } = await target.scenarios['get-session']();
      await autocannon({ ...request, connections, duration: 1, workers: 1 });
      await target.idle();
    }
    for (const scenario of scenarios) {
      for (let round = 1; round <= rounds; round++) {
        for (const target of targets) {
          const run = await measure(target, scenario, { duration, connections, signOuts });
          if (!run) continue;
          await target.idle();
          results[scenario][target.name] = [...(results[scenario][target.name] ?? []), run];
          const flag = run.problem ? `  !! ${run.problem}` : '';
          console.error(`  ${scenario}, round ${round}, ${target.name}: ${run.rps} req/s, p99 ${run.p99} ms${flag}`);
          if (run.problem) process.exitCode = 1;
        }
      }
    }
  } finally {
    for (const target of targets) await target.close();
  }
  floorRounds.push(await floorRound(databaseUrl, duration, connections));
  const loadAfter = loadavg();

  const [latchkey, peer] = targets.map((target) => ({ name: target.name, version: target.version }));
  const table = comparisonTable(results, latchkey.name, peer.name, connections);
  const floors = floorTable(floorRounds);
  const report = {
    date: started.toISOString(),
    method: {
      connections,
      duration_s: duration,
      rounds,
      sign_outs_per_run: signOuts,
      order: 'interleaved: for each scenario, each round runs Latchkey then Better Auth',
      load_generator: `autocannon ${environment.versions.autocannon}, one worker thread, loopback`,
      figures: 'req/s = answers / run time, mean of rounds; p99 = mean of the rounds’ p99 (ms)',
    },
    machine: environment.machine,
    versions: { ...environment.versions, latchkey: latchkey.version, better_auth: peer.version },
    load_average: { before: minutes(loadBefore), after: minutes(loadAfter) },
    results,
    floors: floorRounds,
  };
  const markdown = [
    `Side by side, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC: Latchkey ${latchkey.version} ` +
      `(${environment.versions.latchkey_commit}) and Better Auth ${peer.version}, PostgreSQL ` +
      `${environment.versions.postgresql}, Node ${process.version}, ${environment.machine.cores} cores ` +
      `(${environment.machine.cpu}), ${environment.machine.memory_gib} GiB; load average ` +
      `${loadBefore.map((n) => n.toFixed(2)).join(' ')} before, ${loadAfter.map((n) => n.toFixed(2)).join(' ')} after. ` +
      `autocannon, ${connections} connections, ${duration} s per run (sign-out: ${signOuts} requests, each ending ` +
      `its own session), ${rounds} rounds interleaved; req/s is the mean of the rounds (range in brackets), p99 the ` +
      'mean of their p99; ratio is Latchkey ÷ Better Auth (for the p99 row, Better Auth’s p99 ÷ Latchkey’s).',
    '',
    ...markdownTable(table.header, table.rows, 1),
    '',
    `Floors, same run (before and after the comparison; mean, and each measurement):`,
    '',
    ...markdownTable(floors.header, floors.rows, 'llrrrl'),
  ].join('\n');
  console.log(`\n${markdown}\n`);
  writeResults(started, report, markdown);
}

/** Installs `bench/peers` (its own package.json and lock file) when its node_modules is missing. */
function installPeers() {
  if (existsSync(`${peersDir}node_modules/better-auth/package.json`)) return;
  console.error('bench: installing the peers in bench/peers (npm install --prefix bench/peers)');
  execFileSync('npm', ['install', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}

/** One autocannon run of `scenario` against `target`; null when the target has no such path. */
async function measure(target, scenario, { duration, connections, signOuts }) {
  const load = { connections, workers: 1 };
  if (scenario === underLoad) {
    const session = await target.scenarios['get-session']();
    const signUp = await target.scenarios['sign-up']();
    const [reads, signUps] = await Promise.all([
      autocannon({ ...session.request, ...load, duration }),
      autocannon({ ...signUp.request, ...load, duration }),
    ]);
    const run = summary(reads);
    const background = summary(signUps);
    return { ...run, sign_ups_per_s: background.rps, problem: run.problem ?? background.problem };
  }
  const prepare = target.scenarios[scenario];
  if (!prepare) return null;
  if (scenario !== 'sign-out') return summary(await autocannon({ ...(await prepare()).request, ...load, duration }));
  // A fresh session per request, made beforehand; a few spare, as autocannon builds requests ahead.
  const prepared = await prepare(signOuts + 2 * connections);
  const { url, ...request } = prepared.request;
  const result = await autocannon({
    url,
    requests: [{ ...request, setupRequest: nextHeaders, headerSets: prepared.headerSets }],
    amount: signOuts,
    ...load,
  });
  const run = summary(result);
  return { ...run, problem: run.problem ?? (await prepared.check(result['2xx'])) };
}

function summary(result) {
  const failed = result.non2xx + result.errors + result.timeouts;
  let problem = failed ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : null;
  if (result.requests.total === 0) problem = 'no answer within the run';
  return {
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    answers: result.requests.total,
    seconds: result.duration,
    problem,
  };
}

async function floorRound(databaseUrl, duration, connections) {
  console.error('  floors ...');
  return measureFloors({ databaseUrl, duration, connections });
}

function comparisonTable(results, latchkey, peer, connections) {
  const header = ['path', `${latchkey} req/s`, 'p99 ms', `${peer} req/s`, 'p99 ms', 'ratio'];
  const rows = scenarios.map((scenario) => {
    const ours = results[scenario]?.[latchkey];
    const theirs = results[scenario]?.[peer];
    let ratio = '—';
    if (ours && theirs && mean(ours, 'answers') > 0 && mean(theirs, 'answers') > 0) {
      ratio =
        scenario === underLoad
          ? `${(mean(theirs, 'p99') / mean(ours, 'p99')).toFixed(2)}× (p99)`
          : `${(mean(ours, 'rps') / mean(theirs, 'rps')).toFixed(2)}×`;
    }
    return [label(scenario, connections), ...cells(ours), ...cells(theirs), ratio];
  });
  return { header, rows };
}

function label(scenario, connections) {
  if (scenario === 'get-session') return 'get-session (Latchkey: GET /users/me)';
  if (scenario === underLoad) return `get-session while ${connections} other connections sign up`;
  return scenario;
}

function cells(runs) {
  if (!runs) return ['—', '—'];
  const rates = runs.map((run) => run.rps);
  const flag = runs.some((run) => run.problem) ? ' (!)' : '';
  return [
    `${number(mean(runs, 'rps'))} (${number(Math.min(...rates))}–${number(Math.max(...rates))})${flag}`,
    millis(mean(runs, 'p99')),
  ];
}

function floorTable(floorRounds) {
  const header = ['floor', 'unit', 'figure', 'each', 'p99 ms', 'note'];
  const rows = floorRounds[0].map((first, i) => {
    const all = floorRounds.map((round) => round[i]);
    return [
      first.floor,
      first.unit,
      number(mean(all, 'value')),
      all.map((each) => number(each.value)).join(', '),
      first.p99 === undefined ? '' : millis(mean(all, 'p99')),
      all.at(-1).note,
    ];
  });
  return { header, rows };
}

async function describeEnvironment(databaseUrl) {
  const { default: pg } = await serverDependency('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query('show server_version');
  await client.end();
  const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')).version;
  return {
    machine: {
      cpu: cpus()[0]?.model.trim(),
      cores: availableParallelism(),
      memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      kernel: release(),
    },
    versions: {
      node: process.version,
      postgresql: rows[0].server_version,
      latchkey_commit: gitCommit(),
      autocannon: JSON.parse(readFileSync(createRequire(import.meta.url).resolve('autocannon/package.json'), 'utf8'))
        .version,
      pg_latchkey: serverDependencyVersion('pg'),
      pg_better_auth: read('peers/node_modules/pg/package.json'),
      '@node-rs/argon2': serverDependencyVersion('@node-rs/argon2'),
      jose: serverDependencyVersion('jose'),
      hono: serverDependencyVersion('hono'),
    },
  };
}

/** The commit the built service came from, marked when packages/ had uncommitted changes at the time. */
function gitCommit() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: peersDir, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', '../../packages') ? ' + uncommitted changes in packages/' : '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty}`;
  } catch {
    return 'unknown';
  }
}

function writeResults(started, report, markdown) {
  const dir = fileURLToPath(new URL('results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const stamp = started.toISOString().slice(0, 16).replace(':', '');
  const base = `${dir}peers-${stamp}`;
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, `# Latchkey and Better Auth, side by side\n\n${markdown}\n`);
  console.log(`Results: bench/results/peers-${stamp}.json and .md`);
}

/** A load average triple, keyed (an object keeps the JSON as Biome formats it). */
function minutes([one, five, fifteen]) {
  return { '1 min': one, '5 min': five, '15 min': fifteen };
}

function mean(items, key) {
  return items.reduce((sum, item) => sum + item[key], 0) / items.length;
}

function number(value) {
  return Math.round(value).toLocaleString('en-US');
}

function millis(value) {
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}
