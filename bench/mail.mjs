// Latchkey mail benchmark: how long a person waits for a mailed code, from the
// request to the SMTP server holding the message, and how fast the outbox
// drains a burst. Not a test: it reports figures. Run `npm run bench:mail`
// (builds first) or `node bench/mail.mjs` after `npm run build`.
//
//   BENCH_MAILS        mails per scenario (default 200)
//   DATABASE_URL       PostgreSQL to use as well (default postgres://postgres@127.0.0.1:5432/test,
//                      skipped when unreachable)
//
// The service is a test service from packages/server/dist (embedded PGlite, or
// a fresh PostgreSQL schema), sending shared mail to an SMTP server on
// loopback (the `smtp-server` package) that records when each message arrived.
// The send limits (per address and per client) are real: every address is new,
// and the service clock moves ten minutes on between batches of 25 requests.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { SMTPServer } from 'smtp-server';

const mails = Number(process.env.BENCH_MAILS || 200);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const testing = await import('../packages/server/dist/testing/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first (or `npm run bench:mail`).');
  process.exit(1);
});

console.log(
  `Latchkey mail bench, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()[0].toFixed(2)}, ` +
    `${mails} mails per scenario\n`,
);

const peer = await startPeer();
const rows = [];
const backends = [{ name: 'pglite', databaseUrl: null }];
if (await testing.isPostgresReachable(databaseUrl)) backends.push({ name: 'postgres', databaseUrl });
else console.error(`bench: PostgreSQL not reachable, skipped\n`);

for (const backend of backends) {
  const service = await testing.startTestService({
    databaseUrl: backend.databaseUrl,
    smtpUrl: peer.url,
    projectConfig: { magic_link_enabled: true },
  });
  try {
    rows.push(await oneByOne(service, backend.name));
    rows.push(await burst(service, backend.name));
  } finally {
    await service.close();
  }
}
await peer.close();

printTable(
  ['backend', 'scenario', 'mails', 'request p50', 'request p95', 'to SMTP p50', 'to SMTP p95', 'all in'],
  rows.map((r) => [
    r.backend,
    r.scenario,
    r.count,
    ms(r.request[0]),
    ms(r.request[1]),
    ms(r.arrival[0]),
    ms(r.arrival[1]),
    r.total === null ? '' : ms(r.total),
  ]),
);

/** A magic-link request for a new address; resolves with when it was sent and answered. */
async function sendCode(service, to) {
  const started = performance.now();
  const response = await fetch(`${service.apiUrl}/auth/otp/send-sign-in-code`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': service.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': service.keys.publishableClientKey,
    },
    body: JSON.stringify({ email: to, callback_url: 'http://localhost:3000/handler/magic-link-callback' }),
  });
  if (response.status !== 200)
    throw new Error(`send-sign-in-code answered ${response.status}: ${await response.text()}`);
  return { started, answered: performance.now() };
}

/** One request at a time: what a single person waits for. */
async function oneByOne(service, backend) {
  const sent = [];
  for (let i = 0; i < mails; i++) {
    if (i % 25 === 0) service.clock.advance(10 * 60_000); // fresh send-limit windows
    const to = `one-${backend}-${i}-${Date.now()}@example.com`;
    const times = await sendCode(service, to);
    await peer.arrival(to);
    sent.push({ ...times, arrived: peer.arrivedAt.get(to) });
  }
  return summary(backend, 'one by one', sent, null);
}

/** Batches of 25 at once, all queued before any arrives: how fast the outbox drains. */
async function burst(service, backend) {
  const started = performance.now();
  const addresses = [];
  const sent = [];
  for (let i = 0; i < mails; i += 25) {
    service.clock.advance(10 * 60_000);
    const batch = Array.from(
      { length: Math.min(25, mails - i) },
      (_, j) => `burst-${backend}-${i + j}-${Date.now()}@example.com`,
    );
    addresses.push(...batch);
    sent.push(...(await Promise.all(batch.map(async (to) => ({ to, ...(await sendCode(service, to)) })))));
  }
  await Promise.all(addresses.map((to) => peer.arrival(to)));
  const total = performance.now() - started;
  return summary(
    backend,
    'burst',
    sent.map((s) => ({ ...s, arrived: peer.arrivedAt.get(s.to) })),
    total,
  );
}

function summary(backend, scenario, sent, total) {
  const request = percentiles(sent.map((s) => s.answered - s.started));
  const arrival = percentiles(sent.map((s) => s.arrived - s.started));
  return { backend, scenario, count: sent.length, request, arrival, total };
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return [at(50), at(95)];
}

/** An SMTP server on loopback that notes when each recipient's message arrived. */
async function startPeer() {
  const arrivedAt = new Map();
  const waiting = new Map();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        const now = performance.now();
        for (const { address } of session.envelope.rcptTo) {
          arrivedAt.set(address, now);
          waiting.get(address)?.();
        }
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivedAt,
    arrival: (address) =>
      arrivedAt.has(address) ? Promise.resolve() : new Promise((resolve) => waiting.set(address, resolve)),
    close: () => new Promise((resolve) => smtp.close(resolve)),
  };
}

function ms(value) {
  return `${value.toFixed(0)} ms`;
}

function printTable(header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => String(row[i]).length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w, i) => (i < 2 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of body) console.log(line(row));
}
