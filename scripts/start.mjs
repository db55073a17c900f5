// `npm start`: the service on the embedded database plus the demo app, after `npm run build`.
//
//   LATCHKEY_PORT      service port (default 8102)
//   DEMO_PORT          demo port (default 5173)
//   LATCHKEY_DATA_DIR  data directory (default .latchkey at the repository root)
//
// The service runs as a child process (`latchkey dev --json`); its JSON line tells the demo where the API is and which keys
// to use. Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliBin = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const servicePort = process.env.LATCHKEY_PORT || '8102';
const demoPort = Number(process.env.DEMO_PORT || 5173);
const dataDir = process.env.LATCHKEY_DATA_DIR || fileURLToPath(new URL('../.latchkey', import.meta.url));

const stoppers = []; // run in reverse order on shutdown
let stopping = false;

if (!existsSync(cliBin)) {
  process.stderr.write('npm start: packages/cli is not built: run `npm run build` first (or use `npm start`).\n');
  process.exit(1);
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  await main();
} catch (error) {
  fail(error?.code === 'EADDRINUSE' ? `port ${demoPort} is in use; set DEMO_PORT to use another.` : String(error));
}

async function main() {
  const service = await startService();
  const { formatRows, devKeyRows, devKeysNotice } = await import('../packages/cli/dist/index.js');
  const parts = [['service', service.apiUrl]];

  const { serveDemo } = await import('../apps/demo/serve.mjs');
  const demo = await serveDemo({
    port: demoPort,
    config: {
      apiUrl: service.apiUrl,
      projectId: service.projectId,
      publishableClientKey: service.publishableClientKey,
    },
  });
  stoppers.push(() => demo.close());
  parts.push(['demo', demo.url]);

  // The admin dashboard (a later issue) will be served by the service at /dashboard;
  // add its line here: parts.push(['dashboard', `${service.apiUrl}/dashboard`]).

  process.stdout.write(
    `\nLatchkey is running.\n\n${formatRows(parts, '')}\n` +
      `Development project (data in ${service.dataDir}):\n\n${formatRows(devKeyRows(service))}\n` +
      `${devKeysNotice(service.dataDir)}Press Ctrl-C to stop.\n`,
  );
}

/** Spawns `latchkey dev --json` and resolves with its JSON line. */
function startService() {
  const child = spawn(process.execPath, [cliBin, 'dev', '--json', '--port', servicePort, '--data-dir', dataDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
        : `the service did not start (exit ${code}); LATCHKEY_PORT and DEMO_PORT choose other ports.`,
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
