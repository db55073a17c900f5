#!/usr/bin/env node
/**
 * Do the per-address limits and the sign-in back-off hold against the two ways
 * around them a hands-on review found? Counts, not timings:
 *
 * - behind an appending proxy (`trustedProxyHeader: 'x-forwarded-for'`), a
 *   client that writes its own first entry, a new one each time, before the
 *   proxy appends its real address: how many of 150 sign-ups pass the limit of
 *   100 per address, and how many of 70 wrong passwords (on as many accounts)
 *   are checked under the per-address back-off of 50;
 * - 100 wrong passwords sent at once to one account: how many reach the
 *   password check (answers other than 429) under the allowance of 5, with the
 *   counters in PGlite, PostgreSQL (when it answers) and Redis (when it answers).
 *
 *   node --conditions=source --import tsx bench/limits-under-attack.mjs   # from the sources
 *   npm run build && node bench/limits-under-attack.mjs                   # from dist
 */
import { isPostgresReachable, startTestService, testPostgresUrl } from '@latchkey/server/testing';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const headersOf = (service, forwardedFor) => ({
  'content-type': 'application/json',
  'x-stack-project-id': service.projectId,
  'x-stack-access-type': 'client',
  'x-stack-publishable-client-key': service.keys.publishableClientKey,
  ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
});

const post = (service, path, json, forwardedFor) =>
  fetch(`${service.apiUrl}${path}`, {
    method: 'POST',
    headers: headersOf(service, forwardedFor),
    body: JSON.stringify(json),
  }).then(async (answer) => {
    await answer.arrayBuffer();
    return answer.status;
  });

/** What an appending proxy forwards: the client's own entry, then the address it saw (always the same client). */
const forged = (i) => `198.51.100.${(i % 250) + 1}, 203.0.113.7`;
const password = 'correct-horse-battery-1';

async function behindProxy() {
  const service = await startTestService({ databaseUrl: null, trustedProxyHeader: 'x-forwarded-for' });
  try {
    let signUps = 0;
    for (let i = 0; i < 150; i++) {
      const status = await post(
        service,
        '/auth/password/sign-up',
        { email: `bulk-${i}@example.com`, password },
        forged(i),
      );
      if (status === 200) signUps++;
    }
    let checked = 0;
    for (let i = 0; i < 70; i++) {
      const status = await post(
        service,
        '/auth/password/sign-in',
        { email: `spray-${i}@example.com`, password },
        forged(i),
      );
      if (status !== 429) checked++;
    }
    console.log(`behind an appending proxy, first entry rotated by the client:`);
    console.log(`  sign-ups passed (limit 100 per address): ${signUps} of 150`);
    console.log(`  wrong passwords checked (back-off after 50 per address): ${checked} of 70`);
  } finally {
    await service.close();
  }
}

async function burst(label, options) {
  const service = await startTestService(options);
  try {
    const email = 'victim@example.com';
    if ((await post(service, '/auth/password/sign-up', { email, password })) !== 200) throw new Error('sign-up failed');
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(service, '/auth/password/sign-in', { email, password: `guess-${i}` })),
    );
    const checked = statuses.filter((status) => status !== 429).length;
    // The back-off's first wait is 1 s of real time: a burst that takes longer lets one more through per wait.
    const took = Math.round(performance.now() - started);
    console.log(`  ${label}: ${checked} of 100 checked (the burst took ${took} ms)`);
  } finally {
    await service.close();
  }
}

await behindProxy();
console.log('100 wrong passwords at once on one account (allowance 5):');
await burst('PGlite', { databaseUrl: null });
if (await isPostgresReachable(testPostgresUrl)) await burst('PostgreSQL', { databaseUrl: testPostgresUrl });
else console.log('  PostgreSQL: skipped, nothing answers');
await burst('Redis', { databaseUrl: null, redisUrl }).catch((error) =>
  console.log(`  Redis: skipped (${error.message})`),
);
