/**
 * Request vectors: for the same operations, ClientApp must build the requests
 * the official Stack Auth 2.7 SDK built (protocol-requests.jsonl beside the
 * repository), here against the real service. Only the client version,
 * nonces and tokens may differ; the recorded project id and publishable key
 * stand for this service's. Missing vectors fail the run.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isKnownError } from '@latchkey/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from './test-support/recorded-request.js';
import { createTestApp, useTestService } from './test-support/service.js';

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

/** The vectors by `seq`; throws (failing the file) when the file is missing or empty. */
function readVectors(): Map<number, Vector> {
  let text: string;
  try {
    text = readFileSync(vectorsPath, 'utf8');
  } catch (error) {
    throw new Error(`The request vectors are needed beside the repository, at ${vectorsPath}`, { cause: error });
  }
  const vectors = text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Vector);
  if (vectors.length === 0) throw new Error(`${vectorsPath} holds no vectors`);
  return new Map(vectors.map((v) => [v.seq, v]));
}

const vectors = readVectors();

/** The project id and publishable key the vectors were recorded with, which stand for this service's. */
const recorded = {
  projectId: '8a3f9c52-5e2c-4f6b-9a1d-2f6d1c0b7e41',
  publishableClientKey: 'pck_rcmnqnya6tqcfzzfcd00v32j4sa98fk245mfk68wkg19r',
};

/** Header values that are fresh per request or per session. */
const volatileHeaders: Record<string, RegExp> = {
  'x-stack-client-version': /^js @latchkey\/js@\d+\.\d+\.\d+/,
  'x-stack-random-nonce': /^[0-9a-hjkmnp-tv-z]{45}$/,
  'x-stack-access-token': /^[\w-]+\.[\w-]+\.[\w-]+$/,
  'x-stack-refresh-token': /.+/,
};
/** Body values that are tokens. */
const volatileBodyKeys = new Set(['refresh_token']);

const service = useTestService();
beforeAll(() => service().setProjectConfig({ client_user_deletion_enabled: true }));

/** A recorded value as this service spells it: the recorded project id and key become ours. */
function asOurs(value: unknown): unknown {
  if (value === recorded.projectId) return service().projectId;
  if (value === recorded.publishableClientKey) return service().keys.publishableClientKey;
  return value;
}

function expectSameRequest(sent: RecordedRequest | undefined, seq: number) {
  const vector = vectors.get(seq);
  if (!vector) throw new Error(`vector ${seq} missing`);
  const where = `vector ${seq} (${vector.label})`;
  expect(sent, where).toBeDefined();
  if (!sent) return;
  expect([sent.method, sent.path, sent.query], where).toEqual([vector.method, vector.path, vector.query]);
  const stackNames = (headers: Record<string, string>) =>
    Object.keys(headers)
      .map((h) => h.toLowerCase())
      .filter((h) => h.startsWith('x-stack-'))
      .sort();
  expect(stackNames(sent.headers), where).toEqual(stackNames(vector.headers));
  for (const [name, value] of Object.entries(vector.headers)) {
    const pattern = volatileHeaders[name];
    if (pattern) expect(sent.headers[name], `${where} ${name}`).toMatch(pattern);
    else expect(sent.headers[name], `${where} ${name}`).toBe(asOurs(value));
  }
  expect(sent.contentType, `${where} content-type`).toBe(vector.headers['content-type'] ?? null);
  expect(sent.body === null, `${where} body presence`).toBe(vector.body === null);
  if (vector.body === null) return;
  const body = sent.body as Record<string, unknown>;
  const expected = vector.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), `${where} body keys`).toEqual(Object.keys(expected).sort());
  for (const key of Object.keys(expected)) {
    if (!volatileBodyKeys.has(key)) expect(body[key], `${where} body.${key}`).toEqual(asOurs(expected[key]));
  }
}

/** The vectors' user; every test shares the one service, so she signs up once and later tests sign her in. */
const alice = { email: 'alice-mwqsucno@example.com', password: 'correct-horse-1' };
const verificationCallbackUrl = 'http://localhost:3000/handler/email-verification';

function setup(publishableClientKey?: string) {
  const test = createTestApp(service(), {
    urls: { emailVerification: verificationCallbackUrl },
    ...(publishableClientKey ? { publishableClientKey } : {}),
  });
  /** Requests made by `operation` only (its outcome does not matter here, only what it sent). */
  const during = async (operation: () => Promise<unknown>) => {
    const start = test.requests.length;
    await operation().catch(() => {});
    return test.requests.slice(start);
  };
  return { ...test, during };
}

/** An app with alice signed in, whichever test first created her. */
async function signedIn() {
  const context = setup();
  await context.app.signUpWithCredential({ ...alice, noRedirect: true }).catch(async (error: unknown) => {
    if (!isKnownError(error, 'USER_EMAIL_ALREADY_EXISTS')) throw error;
    await context.app.signInWithCredential({ ...alice, noRedirect: true });
  });
  return context;
}

describe('request vectors (protocol-requests.jsonl)', () => {
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
    const { app, during } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    service().clock.advance(590_000);
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
