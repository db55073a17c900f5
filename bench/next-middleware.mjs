#!/usr/bin/env node
/**
 * `@latchkey/next/middleware` throughput: the built middleware
 * (`packages/next/dist/middleware.js`) called in-process with `NextRequest`s, as
 * Next calls it, against a test service over loopback HTTP
 * (`@latchkey/server/testing`), its `fetch` counting every call to the service.
 * Three kinds of request, each `BENCH_REQUESTS` times (default 5,000) with
 * `BENCH_CONCURRENCY` in flight (default 10):
 *
 * - `signed in`: a valid access token, verified locally against the JWKS
 *   (fetched once, then cached): the figure of interest is 0 calls per request;
 * - `expired`: an access token expired by the clock, so each request refreshes
 *   (one `POST /auth/oauth/token`) and sets the new cookies;
 * - `signed out`: no session, a protected route: a redirect to sign-in, no call.
 *
 *   npm run build && node bench/next-middleware.mjs
 *
 * Figures, not a test.
 */
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { markdownTable } from './table.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const requests = Number(process.env.BENCH_REQUESTS || 5000);
const concurrency = Number(process.env.BENCH_CONCURRENCY || 10);

process.env.NEXT_TELEMETRY_DISABLED = '1';
const { startTestService } = await import(`${root}packages/server/dist/testing/index.js`);
const { ClientApp } = await import(`${root}packages/js/dist/index.js`);
const { latchkeyMiddleware } = await import(`${root}packages/next/dist/middleware.js`);
// Next is the demo's dev dependency: its NextRequest, as the demo's middleware gets it.
const { NextRequest } = createRequire(`${root}apps/next-demo/package.json`)('next/server.js');

console.log(
  `@latchkey/next middleware, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()[0].toFixed(2)}, ` +
    `${requests} requests of each kind, ${concurrency} in flight\n`,
);

const service = await startTestService({ logger: false });
try {
  const calls = [];
  const middleware = latchkeyMiddleware({
    protect: ['/account'],
    config: {
      baseUrl: service.url,
      projectId: service.projectId,
      publishableClientKey: service.keys.publishableClientKey,
    },
    fetch: (url, init) => {
      calls.push(new URL(url).pathname);
      return fetch(url, init);
    },
  });
  const tokens = await signedIn(service);
  const cookieOf = ({ refreshToken, accessToken }) =>
    `stack-refresh-${service.projectId}=${encodeURIComponent(refreshToken)}; ` +
    `stack-access=${encodeURIComponent(JSON.stringify([refreshToken, accessToken]))}`;
  const fresh = cookieOf(tokens);
  service.clock.advance(-20 * 60_000); // tokens issued 20 minutes ago: expired by the middleware's clock
  const expired = cookieOf(await signedIn(service));
  service.clock.set(Date.now());

  const rows = [];
  for (const [name, cookie, expect] of [
    ['signed in', fresh, 'next'],
    ['expired', expired, 'refreshed'],
    ['signed out', null, 'redirect'],
  ]) {
    await middleware(request(cookie)); // warm: the JWKS is fetched here, not counted
    calls.length = 0;
    const started = performance.now();
    let unexpected = 0;
    let sent = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent < requests) {
          sent++;
          const response = await middleware(request(cookie));
          if (outcome(response) !== expect) unexpected++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    rows.push([
      name,
      Math.round(requests / seconds).toLocaleString('en'),
      (calls.length / requests).toFixed(3),
      String(unexpected),
    ]);
  }
  console.log(
    markdownTable(['request', 'requests/s', 'service calls per request', 'unexpected answers'], rows).join('\n'),
  );
} finally {
  await service.close();
}

function request(cookie) {
  return new NextRequest('http://app.example/account', { headers: cookie ? { cookie } : {} });
}

function outcome(response) {
  if (response.status === 307) return 'redirect';
  if (response.headers.get('x-middleware-next') !== '1') return 'other';
  return response.headers.get('set-cookie') ? 'refreshed' : 'next';
}

async function signedIn(service) {
  const app = new ClientApp({
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    baseUrl: service.url,
    tokenStore: 'memory',
    clock: service.clock,
  });
  const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await app.signUpWithCredential({ email, password: 'correct-horse-battery-1', noRedirect: true });
  return (await app.getUser({ or: 'throw' })).getTokens();
}
