/**
 * Better Auth as the peer of `npm run bench -- --peers`: its defaults with
 * email and password on and its rate limit off (Latchkey's attempt limits are
 * off too), on the same PostgreSQL in a fresh schema (tables made by its own
 * `getMigrations`, schema dropped on close), served by Node's http server
 * through `toNodeHandler`, in this process like Latchkey. Requests carry the
 * `Origin` a browser on the same site would send.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { betterAuth } from 'better-auth';
import { makeSignature } from 'better-auth/crypto';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import pg from 'pg';
import { inBatches, inFlight } from '../in-flight.mjs';

const password = 'bench password 1234';

/** Starts Better Auth and signs up the user that sign-in and get-session use. */
export async function startBetterAuth({ databaseUrl }) {
  const schema = `bench_better_auth_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await admin.query(`create schema ${schema}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path=${schema}` });

  let handle = (_request, response) => response.writeHead(503).end();
  const http = createServer((request, response) => handle(request, response));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}`;
  const options = {
    database: pool,
    baseURL: url,
    secret: randomBytes(32).toString('base64url'),
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
  };
  const { runMigrations } = await getMigrations(options);
  await runMigrations();
  const auth = betterAuth(options);
  const work = inFlight();
  const handler = toNodeHandler(auth);
  handle = (request, response) => work.track(handler(request, response));

  const json = { origin: url, 'content-type': 'application/json' };
  const email = 'bench@example.com';
  const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, name: 'Bench' }),
  });
  const created = await signUp.json();
  if (!signUp.ok) throw new Error(`Better Auth sign-up failed: ${signUp.status} ${JSON.stringify(created)}`);
  const cookie = sessionCookie(signUp.headers.getSetCookie());
  await expectSession(url, cookie, created.user.id);

  const context = await auth.$context;
  /** `count` sessions of the user made by its internal adapter (no password hash), each with its signed cookie. */
  async function newSessions(count) {
    const sessions = await inBatches(count, () => context.internalAdapter.createSession(created.user.id));
    const name = context.authCookies.sessionToken.name;
    const cookies = await Promise.all(
      sessions.map(
        async ({ token }) => `${name}=${encodeURIComponent(`${token}.${await makeSignature(token, context.secret)}`)}`,
      ),
    );
    await expectSession(url, cookies[0], created.user.id);
    return { tokens: sessions.map((session) => session.token), cookies };
  }

  return {
    name: 'Better Auth',
    version: JSON.parse(readFileSync(new URL('node_modules/better-auth/package.json', import.meta.url), 'utf8'))
      .version,
    scenarios: {
      'sign-up': async () => ({
        request: {
          url: `${url}/api/auth/sign-up/email`,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: 'bench-[<id>]@example.com', password, name: 'Bench' }),
          idReplacement: true,
        },
      }),
      'sign-in': async () => ({
        request: {
          url: `${url}/api/auth/sign-in/email`,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email, password }),
        },
      }),
      'get-session': async () => {
        await expectSession(url, cookie, created.user.id);
        return { request: { url: `${url}/api/auth/get-session`, method: 'GET', headers: { origin: url, cookie } } };
      },
      'sign-out': async (count) => {
        const { tokens, cookies } = await newSessions(count);
        return {
          request: { url: `${url}/api/auth/sign-out`, method: 'POST', headers: { origin: url } },
          headerSets: cookies.map((each) => ({ cookie: each })),
          // Sign-out answers 200 even without a session, so count the sessions it really ended.
          check: async (answered) => {
            const { rows } = await pool.query('select count(*)::int as left from "session" where token = any($1)', [
              tokens,
            ]);
            const ended = tokens.length - rows[0].left;
            return ended === answered ? null : `${answered} sign-outs answered but ${ended} sessions ended`;
          },
        };
      },
    },
    idle: work.idle,
    close: async () => {
      await work.idle();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await pool.end();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

function sessionCookie(setCookies) {
  const session = setCookies.find((each) => each.includes('session_token='));
  if (!session) throw new Error(`Better Auth set no session cookie: ${JSON.stringify(setCookies)}`);
  return session.split(';')[0];
}

async function expectSession(url, cookie, userId) {
  const answer = await fetch(`${url}/api/auth/get-session`, { headers: { origin: url, cookie } });
  const body = await answer.json();
  if (!answer.ok || body?.user?.id !== userId) {
    throw new Error(`Better Auth get-session did not find the session: ${answer.status} ${JSON.stringify(body)}`);
  }
}
