#!/usr/bin/env node
/**
 * Passkey sign-in and the TOTP second step, over HTTP. A passkey sign-in is
 * the two calls the SDK makes (`initiate-passkey-authentication`, then
 * `sign-in` with the assertion), the assertion built by the software
 * authenticator of `@latchkey/server/testing` (real ES256 signatures) for a
 * user who registered it through the routes; measured one at a time and with
 * 10 at once (one user and passkey per worker, so their counters only rise).
 * The second step is `POST /auth/mfa/sign-in` alone, with a code computed as
 * an authenticator app does, for users whose password sign-in asked for it;
 * each user proves one code (a code works once per user and time step).
 * Runs on PGlite and, when one answers (`DATABASE_URL`, default
 * `postgres://postgres@127.0.0.1:5432/test`), on PostgreSQL.
 *
 *   npm run bench:passkeys
 *
 * Figures, not a test: it prints a Markdown table. The project's
 * `code_checks_per_client` is raised to its maximum, since every request
 * comes from one address.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { forEachBackend } from './backends.mjs';

const signIns = Number(process.env.BENCH_SIGN_INS || 300);
const secondSteps = Number(process.env.BENCH_SECOND_STEPS || 150);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');
const page = { origin: 'http://localhost:3000' };
const password = 'correct-horse-battery';

console.log(
  `Latchkey passkey sign-in and TOTP second step, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${signIns} passkey sign-ins and ` +
    `${secondSteps} second steps per scenario\n`,
);

/** The six digits of `secret` (bytes) at `now`, as an authenticator app computes them (RFC 6238, SHA-1, 30 s). */
function totp(secret, now = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Sends `body` as JSON with `headers`; answers the parsed body, throwing on any status but `expected`. */
async function post(url, headers, body, expected = 200, method = 'POST') {
  const answer = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  if (answer.status !== expected) throw new Error(`${method} ${url}: ${answer.status} ${text}`);
  return JSON.parse(text);
}

/** Quantiles and rate of `durations` (ms) over `seconds`. */
function figures(durations, seconds) {
  durations.sort((a, b) => a - b);
  const at = (q) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))].toFixed(1);
  return [(durations.length / seconds).toFixed(0), at(0.5), at(0.99)];
}

/** Runs `once(worker, index)` `total` times with `concurrency` workers; answers the figures. */
async function scenario(total, concurrency, once) {
  const durations = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) durations.push(await once(worker, next++));
    }),
  );
  return figures(durations, (performance.now() - started) / 1000);
}

const rows = [];
await forEachBackend(server, testing, { databaseUrl, prefix: 'bench_passkeys' }, async ({ backend, api, keys }) => {
  const client = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': keys.publishableClientKey,
  };
  const serverKey = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': keys.secretServerKey,
  };
  const admin = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'admin',
    'x-stack-super-secret-admin-key': keys.superSecretAdminKey,
  };
  await post(
    `${api}/projects/current`,
    admin,
    { config: { passkey_enabled: true, rate_limits: { code_checks_per_client: 10_000 } } },
    200,
    'PATCH',
  );

  // Ten users, each with a passkey registered through the routes.
  const run = randomBytes(3).toString('hex');
  const authenticators = [];
  for (let i = 0; i < 10; i++) {
    const user = await post(`${api}/auth/password/sign-up`, client, {
      email: `passkey-${run}-${i}@example.com`,
      password,
    });
    const signedIn = { ...client, 'x-stack-access-token': user.access_token };
    const started = await post(`${api}/auth/passkey/initiate-passkey-registration`, signedIn, {});
    const authenticator = new testing.SoftwareAuthenticator();
    const credential = authenticator.register(started.options_json, page);
    await post(`${api}/auth/passkey/register`, signedIn, { credential, code: started.code });
    authenticators.push(authenticator);
  }
  const passkeySignIn = async (worker) => {
    const began = performance.now();
    const { options_json, code } = await post(`${api}/auth/passkey/initiate-passkey-authentication`, client, {});
    const authentication_response = authenticators[worker].authenticate(options_json, page);
    await post(`${api}/auth/passkey/sign-in`, client, { authentication_response, code });
    return performance.now() - began;
  };
  for (let i = 0; i < 20; i++) await passkeySignIn(i % 10); // warm up
  rows.push([backend, 'passkey sign-in (2 calls), 1 at a time', ...(await scenario(signIns, 1, passkeySignIn))]);
  rows.push([backend, 'passkey sign-in (2 calls), 10 at once', ...(await scenario(signIns, 10, passkeySignIn))]);

  /** `count` users with TOTP, each signed in with the password: their secrets and attempt codes. */
  const attempts = async (label, count) => {
    const ready = [];
    for (let i = 0; i < count; i++) {
      const secret = randomBytes(20);
      const email = `mfa-${label}-${run}-${i}@example.com`;
      await post(
        `${api}/users`,
        serverKey,
        {
          primary_email: email,
          primary_email_auth_enabled: true,
          password,
          totp_secret_base64: secret.toString('base64'),
        },
        201,
      );
      const asked = await post(`${api}/auth/password/sign-in`, client, { email, password }, 400);
      if (asked.code !== 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') throw new Error(JSON.stringify(asked));
      ready.push({ secret, attemptCode: asked.details.attempt_code });
    }
    return ready;
  };
  const secondStep = (ready) => async (_, index) => {
    const { secret, attemptCode } = ready[index];
    const began = performance.now();
    await post(`${api}/auth/mfa/sign-in`, client, { code: attemptCode, type: 'totp', totp: totp(secret) });
    return performance.now() - began;
  };
  const one = await attempts('one', secondSteps);
  rows.push([backend, 'TOTP second step, 1 at a time', ...(await scenario(secondSteps, 1, secondStep(one)))]);
  const ten = await attempts('ten', secondSteps);
  rows.push([backend, 'TOTP second step, 10 at once', ...(await scenario(secondSteps, 10, secondStep(ten)))]);
});

console.log('| backend | scenario | per s | p50 ms | p99 ms |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
