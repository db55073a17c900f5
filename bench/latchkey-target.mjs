/**
 * Latchkey as one side of `npm run bench -- --peers`: the built service in
 * this process on PostgreSQL (a fresh schema, dropped on close), started as
 * `bench/run.mjs` starts it (request log on, to /dev/null) with the attempt limits off, as
 * the peer's rate limit is. Each scenario prepares an autocannon request;
 * the shapes match `bench/peers/better-auth.mjs`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inBatches, inFlight } from './in-flight.mjs';
import { benchLogger } from './request-log.mjs';

const password = 'bench password 1234';

/** Starts the service and signs up the user that sign-in, get-session and refresh use. */
export async function startLatchkey({ server, testing, databaseUrl }) {
  const storage = await server.openStorage({ databaseUrl, schema: `bench_peers_${randomBytes(4).toString('hex')}` });
  const keys = await server.bootstrap(storage, { dev: true });
  const service = server.createService({
    storage,
    secret: randomBytes(32).toString('base64url'),
    logger: (await benchLogger()).logger,
    attemptLimits: false,
  });
  const work = inFlight();
  const listening = await server.startServer({
    service: { fetch: (request, env) => work.track(service.fetch(request, env)), close: () => service.close() },
    port: 0,
    host: '127.0.0.1',
  });
  const url = new URL(listening.url).origin;
  const client = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': keys.publishableClientKey,
  };
  const json = { ...client, 'content-type': 'application/json' };
  const email = 'bench@example.com';
  const signUp = await fetch(`${url}/api/v1/auth/password/sign-up`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  const tokens = await signUp.json();
  if (!signUp.ok) throw new Error(`Latchkey sign-up failed: ${signUp.status} ${JSON.stringify(tokens)}`);
  const me = await fetch(`${url}/api/v1/users/me`, {
    headers: { ...client, 'x-stack-access-token': tokens.access_token },
  });
  const user = await me.json();
  if (!me.ok) throw new Error(`Latchkey GET /users/me failed: ${me.status} ${JSON.stringify(user)}`);

  /** `count` sessions of the user, opened by server code (no password hash), for one sign-out each. */
  async function newSessions(count) {
    const server = { ...json, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': keys.secretServerKey };
    return inBatches(count, async () => {
      const answer = await fetch(`${url}/api/v1/auth/sessions`, {
        method: 'POST',
        headers: server,
        body: JSON.stringify({ user_id: user.id }),
      });
      const body = await answer.json();
      if (!answer.ok) throw new Error(`Latchkey POST /auth/sessions failed: ${answer.status} ${JSON.stringify(body)}`);
      return { 'x-stack-refresh-token': body.refresh_token };
    });
  }

  const refreshForm = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: keys.projectId,
    client_secret: keys.publishableClientKey,
  }).toString();

  /** A fresh access token (they last 10 minutes, a run with its floors may take longer). */
  async function accessToken() {
    const answer = await fetch(`${url}/api/v1/auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: refreshForm,
    });
    const body = await answer.json();
    if (!answer.ok) throw new Error(`Latchkey refresh failed: ${answer.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }

  return {
    name: 'Latchkey',
    version: JSON.parse(readFileSync(new URL('../packages/server/package.json', import.meta.url), 'utf8')).version,
    scenarios: {
      'sign-up': async () => ({
        request: {
          url: `${url}/api/v1/auth/password/sign-up`,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: 'bench-[<id>]@example.com', password }),
          idReplacement: true,
        },
      }),
      'sign-in': async () => ({
        request: {
          url: `${url}/api/v1/auth/password/sign-in`,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email, password }),
        },
      }),
      'get-session': async () => {
        const headers = { ...client, 'x-stack-access-token': await accessToken() };
        const check = await fetch(`${url}/api/v1/users/me`, { headers });
        const found = await check.json();
        if (!check.ok || found.id !== user.id) {
          throw new Error(`Latchkey GET /users/me did not find the user: ${check.status} ${JSON.stringify(found)}`);
        }
        return { request: { url: `${url}/api/v1/users/me`, method: 'GET', headers } };
      },
      'sign-out': async (count) => ({
        request: { url: `${url}/api/v1/auth/sessions/current`, method: 'DELETE', headers: client },
        headerSets: await newSessions(count),
        // A refresh token already ended is refused (401), so the non-2xx count shows a session signed out twice.
        check: async () => null,
      }),
      refresh: async () => ({
        request: {
          url: `${url}/api/v1/auth/oauth/token`,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
          body: refreshForm,
        },
      }),
    },
    idle: work.idle,
    close: async () => {
      await work.idle();
      await listening.close();
      await testing.dropSchema(storage);
    },
  };
}
