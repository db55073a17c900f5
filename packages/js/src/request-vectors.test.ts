/**
 * Request vectors: for the same operations, ClientApp must build the requests
 * the official Stack Auth 2.7 SDK built (protocol-requests.jsonl beside the
 * repository). Only the client version, nonces, tokens and ids may differ.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ClientApp } from './client-app.js';
import {
  createFakeService,
  type RecordedRequest,
  testProjectId,
  testPublishableKey,
} from './test-support/fake-service.js';
import { testClock } from './test-support/tokens.js';

interface Vector {
  seq: number;
  label: string | null;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

const vectorsPath = fileURLToPath(new URL('../../../../shared/protocol-requests.jsonl', import.meta.url));
const vectorsExist = existsSync(vectorsPath);
if (!vectorsExist) console.warn(`request vectors skipped: ${vectorsPath} not found`);
const vectors = new Map<number, Vector>(
  vectorsExist
    ? readFileSync(vectorsPath, 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as Vector)
        .map((v) => [v.seq, v])
    : [],
);

/** Header values that are fresh per request or per session. */
const volatileHeaders: Record<string, RegExp> = {
  'x-stack-client-version': /^js @latchkey\/js@\d+\.\d+\.\d+/,
  'x-stack-random-nonce': /^[0-9a-hjkmnp-tv-z]{45}$/,
  'x-stack-access-token': /^[\w-]+\.[\w-]+\.[\w-]+$/,
  'x-stack-refresh-token': /.+/,
};
/** Body values that are tokens. */
const volatileBodyKeys = new Set(['refresh_token']);

function expectSameRequest(ours: RecordedRequest | undefined, seq: number) {
  const vector = vectors.get(seq);
  if (!vector) throw new Error(`vector ${seq} missing`);
  const where = `vector ${seq} (${vector.label})`;
  expect(ours, where).toBeDefined();
  if (!ours) return;
  expect([ours.method, ours.path, ours.query], where).toEqual([vector.method, vector.path, vector.query]);
  const stackNames = (headers: Record<string, string>) =>
    Object.keys(headers)
      .map((h) => h.toLowerCase())
      .filter((h) => h.startsWith('x-stack-'))
      .sort();
  expect(stackNames(ours.headers), where).toEqual(stackNames(vector.headers));
  for (const [name, value] of Object.entries(vector.headers)) {
    const pattern = volatileHeaders[name];
    if (pattern) expect(ours.headers[name], `${where} ${name}`).toMatch(pattern);
    else expect(ours.headers[name], `${where} ${name}`).toBe(value);
  }
  expect(ours.contentType, `${where} content-type`).toBe(vector.headers['content-type'] ?? null);
  expect(ours.body === null, `${where} body presence`).toBe(vector.body === null);
  if (vector.body === null) return;
  const body = ours.body as Record<string, unknown>;
  const expected = vector.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), `${where} body keys`).toEqual(Object.keys(expected).sort());
  for (const key of Object.keys(expected)) {
    if (!volatileBodyKeys.has(key)) expect(body[key], `${where} body.${key}`).toEqual(expected[key]);
  }
}

const alice = { email: 'alice-mwqsucno@example.com', password: 'correct-horse-1' };
const verificationCallbackUrl = 'http://localhost:3000/handler/email-verification';

function setup(publishableClientKey = testPublishableKey) {
  const clock = testClock();
  const service = createFakeService({ clock });
  const app = new ClientApp({
    projectId: testProjectId,
    publishableClientKey,
    baseUrl: 'http://localhost:8102',
    tokenStore: 'memory',
    fetch: service.fetch,
    clock,
    urls: { emailVerification: verificationCallbackUrl },
  });
  /** Requests made by `operation` only. */
  const during = async (operation: () => Promise<unknown>) => {
    const start = service.requests.length;
    await operation().catch(() => {});
    return service.requests.slice(start);
  };
  return { app, service, clock, during };
}

async function signedIn() {
  const context = setup();
  await context.app.signUpWithCredential({ ...alice, noRedirect: true });
  return context;
}

describe.skipIf(!vectorsExist)('request vectors (protocol-requests.jsonl)', () => {
  it('getProject = vector 1', async () => {
    const { app, during } = setup();
    const sent = await during(() => app.getProject());
    expect(sent).toHaveLength(1);
    expectSameRequest(sent[0], 1);
  });

  it('signUpWithCredential = vector 2; duplicate = 3; short password = 4', async () => {
    const { app, during } = setup();
    const first = await during(() => app.signUpWithCredential({ ...alice, noRedirect: true }));
    const duplicate = await during(() => app.signUpWithCredential({ ...alice, noRedirect: true }));
    const short = { email: 'short-alice-mwqsucno@example.com', password: '123', noRedirect: true };
    const tooShort = await during(() => app.signUpWithCredential(short));
    expect([first.length, duplicate.length, tooShort.length]).toEqual([1, 1, 1]);
    expectSameRequest(first[0], 2);
    expectSameRequest(duplicate[0], 3);
    expectSameRequest(tooShort[0], 4);
  });

  it('getUser = vector 5', async () => {
    const { app, during } = await signedIn();
    const sent = await during(() => app.getUser());
    expect(sent).toHaveLength(1);
    expectSameRequest(sent[0], 5);
  });

  it('user.update(displayName, clientMetadata) = vectors 6-7', async () => {
    const { app, during } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    const sent = await during(() => user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark', n: 1 } }));
    expect(sent).toHaveLength(2);
    expectSameRequest(sent[0], 6);
    expectSameRequest(sent[1], 7);
  });

  it('signInWithCredential with a wrong password = vector 75', async () => {
    const { app, during } = await signedIn();
    const sent = await during(() =>
      app.signInWithCredential({ ...alice, password: 'wrong-password', noRedirect: true }),
    );
    expect(sent).toHaveLength(1);
    expectSameRequest(sent[0], 75);
  });

  it('the refresh call = vector 58 (then PATCH = 60, GET = 62)', async () => {
    const { app, during, clock } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    clock.advance(590_000);
    const sent = await during(() => user.update({ displayName: 'Alice R' }));
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/auth/oauth/token',
      'PATCH /api/v1/users/me',
      'GET /api/v1/users/me',
    ]);
    expectSameRequest(sent[0], 58);
    expectSameRequest(sent[1], 60);
    expectSameRequest(sent[2], 62);
  });

  it('getUser then user.signOut = vectors 108-109', async () => {
    const { app, during } = await signedIn();
    const sent = await during(async () => (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true }));
    expect(sent).toHaveLength(2);
    expectSameRequest(sent[0], 108);
    expectSameRequest(sent[1], 109);
  });

  it('getUser then user.delete = vectors 110-111', async () => {
    const { app, during } = await signedIn();
    const sent = await during(async () => (await app.getUser({ or: 'throw' })).delete());
    expect(sent).toHaveLength(2);
    expectSameRequest(sent[0], 110);
    expectSameRequest(sent[1], 111);
  });

  it('a bad publishable key = vector 112', async () => {
    const { app, during } = setup('pck_bad');
    const sent = await during(() => app.getProject());
    expect(sent).toHaveLength(1);
    expectSameRequest(sent[0], 112);
  });
});
