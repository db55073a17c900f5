// `npm start`: builds what changed (scripts/build.mjs), then runs the service on the
// embedded database plus the demo app. `npm start -- --help` lists the settings.
// `npm run start:next` (`--next`) runs the Next.js demo (apps/next-demo) instead: `next build`, then `next start`.
//
// The service runs as a child process (`latchkey dev --json`); its JSON line tells the demo where the API is and which keys
// to use. Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const usage = `Usage: npm start [-- options]

Builds what changed since the last run, then starts the Latchkey service on the
embedded database and the demo app.

Options (each also has an environment variable; the option wins):
  -p, --port <n>        service port (LATCHKEY_PORT, default 8102; 0 picks a free port)
      --demo-port <n>   demo port (DEMO_PORT, default 5173, 3000 with --next; 0 picks a free port)
      --next            the Next.js App Router demo (apps/next-demo) instead of the Vite one
      --data-dir <dir>  data directory of the embedded database and the dev project's keys
                        (LATCHKEY_DATA_DIR, default .latchkey at the repository root)
  -h, --help            show this help

Mail the service sends (verification, password reset, sign-in codes) lands in the
dev mailbox, printed as \`mailbox\`; set LATCHKEY_SMTP_URL (smtp://user:pass@host:587)
to send it through an SMTP server instead.

Example: npm start -- --port 9000 --demo-port 9001
`;

const root = fileURLToPath(new URL('..', import.meta.url));
const cliBin = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const { servicePort, demoPort, dataDir, next } = readSettings(process.argv.slice(2));

const stoppers = []; // run in reverse order on shutdown
let stopping = false;

const { build } = await import('./build.mjs');
if (!build()) {
  process.stderr.write('npm start: the build failed (see above); `npm run build` repeats it.\n');
  process.exit(1);
}
if (!existsSync(cliBin)) {
  process.stderr.write('npm start: packages/cli/dist/bin.js is missing after the build: run `npm run build`.\n');
  process.exit(1);
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  await main();
} catch (error) {
  fail(
    error?.code === 'EADDRINUSE'
      ? `the demo port ${demoPort} is in use; choose another with --demo-port or DEMO_PORT.`
      : String(error),
  );
}

async function main() {
  const service = await startService();
  const { formatRows, devKeyRows, devKeysNotice, ownerBlock } = await import('../packages/cli/dist/index.js');
  const parts = [
    ['service', service.apiUrl],
    ['mailbox', service.mailboxUrl],
    ...(service.dashboardUrl ? [['dashboard', service.dashboardUrl]] : []),
  ];

  const { serveDemo } = next ? { serveDemo: serveNextDemo } : await import('../apps/demo/serve.mjs');
  const demo = await serveDemo({
    port: demoPort,
    config: {
      apiUrl: service.apiUrl,
      projectId: service.projectId,
      publishableClientKey: service.publishableClientKey,
      ...(next ? { secretServerKey: service.secretServerKey } : {}),
    },
  });
  stoppers.push(() => demo.close());
  parts.push(['demo', demo.url]);

  process.stdout.write(
    `\nLatchkey is running.\n\n${formatRows(parts, '')}\n` +
      `Development project (data in ${service.dataDir}):\n\n${formatRows(devKeyRows(service))}${ownerBlock(service)}\n` +
      `${devKeysNotice(service.dataDir)}Press Ctrl-C to stop.\n`,
  );
}

/**
 * The Next.js demo on `port`: `next build` (Next keeps its own cache), then `next start` with the
 * service's settings in the environment; resolves when it is ready.
 */
async function serveNextDemo({ port, config }) {
  const nextBin = fileURLToPath(new URL('../node_modules/next/dist/bin/next', import.meta.url));
  const cwd = fileURLToPath(new URL('../apps/next-demo/', import.meta.url));
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    LATCHKEY_API_URL: config.apiUrl,
    LATCHKEY_PROJECT_ID: config.projectId,
    LATCHKEY_PUBLISHABLE_CLIENT_KEY: config.publishableClientKey,
    LATCHKEY_SECRET_SERVER_KEY: config.secretServerKey,
  };
  process.stderr.write('npm run start:next: building the Next.js demo (next build)...\n');
  const built = spawnSync(process.execPath, [nextBin, 'build'], { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0)
    throw new Error(`next build failed (exit ${built.status ?? built.signal}); its message is above.`);
  const portToUse = port === 0 ? await freePort() : port;
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(portToUse)], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (/ready/i.test(output)) resolve();
    });
    exited.then((code) => reject(new Error(`next start stopped (exit ${code}):\n${output}`)));
  });
  child.stdout.resume();
  return {
    url: `http://localhost:${portToUse}`,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawns `latchkey dev --json` and resolves with its JSON line. */
function startService() {
  const child = spawn(
    process.execPath,
    [cliBin, 'dev', '--json', '--port', String(servicePort), '--data-dir', dataDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  stoppers.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  let ready = false;
  exited.then((code) => {
    if (stopping) return;
    fail(
      ready
        ? `the service stopped unexpectedly (exit ${code}).`
        : `the service did not start (exit ${code}); its message is above (--port or LATCHKEY_PORT chooses another port, --data-dir or LATCHKEY_DATA_DIR another data directory).`,
    );
  });
  return new Promise((resolve) => {
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      ready = true;
      resolve(JSON.parse(buffer.slice(0, end)));
    });
  });
}

async function shutdown(code) {
  if (stopping) process.exit(code || 130); // a second Ctrl-C: leave at once
  stopping = true;
  process.stderr.write('\nStopping...\n');
  for (const stop of stoppers.reverse()) {
    await Promise.resolve()
      .then(stop)
      .catch((error) => process.stderr.write(`${error}\n`));
  }
  process.exit(code);
}

function fail(message) {
  process.stderr.write(`npm start: ${message}\n`);
  void shutdown(1);
}

/** Options first, then the environment, then the defaults; a bad value names the setting that fixes it. */
function readSettings(args) {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string', short: 'p' },
        'demo-port': { type: 'string' },
        'data-dir': { type: 'string' },
        next: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`npm start: ${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return {
    servicePort: port(values.port, '--port', process.env.LATCHKEY_PORT, 'LATCHKEY_PORT', 8102),
    demoPort: port(values['demo-port'], '--demo-port', process.env.DEMO_PORT, 'DEMO_PORT', values.next ? 3000 : 5173),
    next: values.next === true,
    dataDir: resolve(values['data-dir'] || process.env.LATCHKEY_DATA_DIR || `${root}.latchkey`),
  };
}

function port(option, optionName, env, envName, fallback) {
  const [text, name] = option !== undefined ? [option, optionName] : env ? [env, envName] : [String(fallback), ''];
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65_535) {
    process.stderr.write(`npm start: ${name} must be a port number from 0 to 65535 (got "${text}").\n`);
    process.exit(2);
  }
  return value;
}
