/**
 * What this machine can do at all, measured in the same run as the
 * side-by-side bench, so each auth figure reads as a fraction of it: a
 * hello-world Hono server, a PostgreSQL primary-key select, password hashes,
 * ES256 verification. Packages are the copies `packages/server` resolves.
 */
import { randomBytes, randomUUID, scrypt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const requireFromServer = createRequire(new URL('../packages/server/package.json', import.meta.url));

/** Imports `name` as `packages/server` would find it. */
export function serverDependency(name) {
  return import(pathToFileURL(requireFromServer.resolve(name)).href);
}

/** The version of `name` that `packages/server` uses. */
export function serverDependencyVersion(name) {
  const entry = requireFromServer.resolve(name);
  const root = entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
  return JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version;
}

/** Each floor once: `{ floor, value, unit, p99?, note }`. */
export async function measureFloors({ databaseUrl, duration, connections }) {
  const inFlight = connections;
  return [
    await honoHello({ duration, connections }),
    await postgresSelect({ databaseUrl, duration, inFlight }),
    await argon2id({ duration, inFlight }),
    await scryptBetterAuth({ duration, inFlight }),
    await es256Verify({ duration, inFlight }),
  ];
}

async function honoHello({ duration, connections }) {
  const { Hono } = await serverDependency('hono');
  const { serve } = await serverDependency('@hono/node-server');
  const app = new Hono().get('/', (c) => c.text('hello'));
  const server = await new Promise((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${server.address().port}/`,
      connections,
      duration,
      workers: 1,
    });
    return {
      floor: 'Hono hello world (@hono/node-server)',
      value: Math.round(result.requests.average),
      unit: 'req/s',
      p99: result.latency.p99,
      note: `${connections} connections`,
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function postgresSelect({ databaseUrl, duration, inFlight }) {
  const { default: pg } = await serverDependency('pg');
  const schema = `bench_floor_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: inFlight, options: `-c search_path=${schema}` });
  try {
    await pool.query(`create schema ${schema}`);
    await pool.query('create table rows (id int primary key, value text not null)');
    await pool.query('insert into rows select i, md5(i::text) from generate_series(1, 1000) as i');
    const rate = await perSecond(duration, inFlight, () =>
      pool.query('select id, value from rows where id = $1', [1 + Math.floor(Math.random() * 1000)]),
    );
    return {
      floor: 'PostgreSQL primary-key select (pg Pool)',
      value: Math.round(rate),
      unit: 'queries/s',
      note: `${inFlight} in flight`,
    };
  } finally {
    await pool.query(`drop schema if exists ${schema} cascade`);
    await pool.end();
  }
}

async function argon2id({ duration, inFlight }) {
  const { hash } = await serverDependency('@node-rs/argon2');
  // Latchkey's parameters (packages/server/src/password/passwords.ts): argon2id, v1.3, 19 MiB, t=2, p=1.
  const options = { algorithm: 2, version: 1, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
  const rate = await perSecond(duration, inFlight, () => hash('bench password 1234', options));
  const single = await perSecond(Math.min(duration, 2), 1, () => hash('bench password 1234', options));
  return {
    floor: `argon2id 19 MiB t=2 p=1 (@node-rs/argon2 ${serverDependencyVersion('@node-rs/argon2')})`,
    value: Math.round(rate),
    unit: 'hashes/s',
    note: `${inFlight} in flight; ${(1000 / single).toFixed(1)} ms each one at a time`,
  };
}

async function scryptBetterAuth({ duration, inFlight }) {
  // Better Auth's password hash on Node: node:crypto scrypt, N=16384, r=16, p=1, 64-byte key (32 MiB).
  const options = { N: 16_384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 };
  const once = (salt) =>
    new Promise((resolve, reject) =>
      scrypt('bench password 1234', salt, 64, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  const rate = await perSecond(duration, inFlight, () => once(randomBytes(16).toString('hex')));
  const single = await perSecond(Math.min(duration, 2), 1, () => once(randomBytes(16).toString('hex')));
  return {
    floor: 'scrypt N=16384 r=16 p=1 (node:crypto, Better Auth’s hash)',
    value: Math.round(rate),
    unit: 'hashes/s',
    note: `${inFlight} in flight; ${(1000 / single).toFixed(1)} ms each one at a time`,
  };
}

async function es256Verify({ duration, inFlight }) {
  const { SignJWT, generateKeyPair, jwtVerify } = await serverDependency('jose');
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const audience = 'bench-project';
  const token = await new SignJWT({ sid: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
    .setSubject(randomUUID())
    .setIssuer('latchkey')
    .setIssuedAt()
    .setAudience(audience)
    .setExpirationTime('10m')
    .sign(privateKey);
  // The checks Latchkey's access-token check asks of jose (packages/server/src/tokens/access-tokens.ts).
  const checks = { algorithms: ['ES256'], issuer: 'latchkey', audience, requiredClaims: ['sub', 'exp', 'iat'] };
  const rate = await perSecond(duration, inFlight, () => jwtVerify(token, publicKey, checks));
  return {
    floor: `ES256 verify (jose ${serverDependencyVersion('jose')} jwtVerify, WebCrypto key)`,
    value: Math.round(rate),
    unit: 'verifies/s',
    note: `${inFlight} in flight`,
  };
}

/** Runs `operation` with `inFlight` calls outstanding for `seconds`; completed calls per second. */
async function perSecond(seconds, inFlight, operation) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        await operation();
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}
