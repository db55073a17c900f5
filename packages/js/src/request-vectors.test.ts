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
import { codeFromMail, lastMailTo } from './test-support/mail.js';
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
beforeAll(() =>
  service().setProjectConfig({
    client_user_deletion_enabled: true,
    magic_link_enabled: true,
    client_team_creation_enabled: true,
  }),
);

/** A recorded value as this service spells it: the recorded project id and key become ours. */
function asOurs(value: unknown): unknown {
  if (value === recorded.projectId) return service().projectId;
  if (value === recorded.publishableClientKey) return service().keys.publishableClientKey;
  return value;
}

/**
 * What differs by nature between the recording and this run: body keys whose
 * values are fresh (a mailed code), and recorded ids in the path that stand
 * for ids of this service (`{ [recorded]: ours }`).
 */
interface Fresh {
  bodyKeys?: string[];
  ids?: Record<string, string>;
}

/**
 * Body fields our SDK adds to the official SDK's requests on purpose, each a documented Latchkey extension
 * that the service reads and a 2.7 client never sends: asking for refresh-token rotation.
 */
const latchkeyBodyExtensions = new Set(['latchkey_refresh_rotation']);

function expectSameRequest(sent: RecordedRequest | undefined, seq: number, fresh: Fresh = {}) {
  const vector = vectors.get(seq);
  if (!vector) throw new Error(`vector ${seq} missing`);
  const where = `vector ${seq} (${vector.label})`;
  expect(sent, where).toBeDefined();
  if (!sent) return;
  const ours = (text: string) =>
    Object.entries(fresh.ids ?? {}).reduce((p, [theirs, mine]) => p.replaceAll(theirs, mine), text);
  const query = Object.fromEntries(Object.entries(vector.query).map(([name, value]) => [name, ours(value)]));
  expect([sent.method, sent.path, sent.query], where).toEqual([vector.method, ours(vector.path), query]);
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
  const ourKeys = Object.keys(body).filter((key) => !latchkeyBodyExtensions.has(key));
  expect(ourKeys.sort(), `${where} body keys`).toEqual(Object.keys(expected).sort());
  for (const key of Object.keys(expected)) {
    if (volatileBodyKeys.has(key) || fresh.bodyKeys?.includes(key)) continue;
    const value = typeof expected[key] === 'string' ? ours(expected[key] as string) : expected[key];
    expect(body[key], `${where} body.${key}`).toEqual(asOurs(value));
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
    // The one extension: the app keeps its tokens in memory, so it asks for a rotated refresh token.
    expect((sent[0]?.body as Record<string, unknown> | undefined)?.latchkey_refresh_rotation).toBe('1');
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
  it('user.sendVerificationEmail = vector 11; verifyEmail = 12; a bad code = 15', async () => {
    const { app, during } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    const send = await during(() => user.sendVerificationEmail());
    expect(send).toHaveLength(1);
    expectSameRequest(send[0], 11);
    const verify = await during(async () => app.verifyEmail(codeFromMail(await lastMailTo(service(), alice.email))));
    expectSameRequest(verify[0], 12, { bodyKeys: ['code'] });
    const bad = await during(() => app.verifyEmail('x'.repeat(45)));
    expect(bad).toHaveLength(1); // refused: nothing to re-read
    expectSameRequest(bad[0], 15);
  });

  it('listContactChannels = vector 19; createContactChannel = 20; channel.update = 22; channel.delete = 24', async () => {
    const { app, during } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    const list = await during(() => user.listContactChannels());
    expect(list).toHaveLength(1);
    expectSameRequest(list[0], 19);
    let channelId = '';
    const create = await during(async () => {
      channelId = (
        await user.createContactChannel({ value: 'alt-mwqsucno@example.com', type: 'email', usedForAuth: false })
      ).id;
    });
    expectSameRequest(create[0], 20);
    const channel = (await user.listContactChannels()).find((each) => each.id === channelId)!;
    const ids = { 'd5bc6779-8c98-4b7f-b164-c127b895a28f': channelId };
    const update = await during(() => channel.update({ usedForAuth: true, isPrimary: false }));
    expectSameRequest(update[0], 22, { ids });
    const remove = await during(() => channel.delete());
    expectSameRequest(remove[0], 24, { ids });
  });

  it('forgot password = vectors 70-71; check = 72; reset = 73, reused = 74; updatePassword = 79, wrong old = 82', async () => {
    await signedIn();
    const { app, during } = setup();
    const callbackUrl = 'http://localhost:3000/handler/password-reset';
    const send = await during(() => app.sendForgotPasswordEmail(alice.email, { callbackUrl }));
    expectSameRequest(send[0], 70);
    const unknown = await during(() => app.sendForgotPasswordEmail('nobody-mwqsucno@example.com', { callbackUrl }));
    expectSameRequest(unknown[0], 71);
    const code = codeFromMail(await lastMailTo(service(), alice.email));
    expectSameRequest((await during(() => app.verifyPasswordResetCode(code)))[0], 72, { bodyKeys: ['code'] });
    const reset = await during(() => app.resetPassword({ code, password: 'new-password-2' }));
    expectSameRequest(reset[0], 73, { bodyKeys: ['code'] });
    const reused = await during(() => app.resetPassword({ code, password: 'new-password-3' }));
    expectSameRequest(reused[0], 74, { bodyKeys: ['code'] });

    await app.signInWithCredential({ email: alice.email, password: 'new-password-2', noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    const update = await during(() =>
      user.updatePassword({ oldPassword: 'new-password-2', newPassword: alice.password }),
    );
    expect(update).toHaveLength(1);
    expectSameRequest(update[0], 79);
    const wrong = await during(() =>
      user.updatePassword({ oldPassword: 'nope-nope-nope', newPassword: alice.password }),
    );
    expectSameRequest(wrong[0], 82);
  });

  it('sendMagicLinkEmail = vector 84; signInWithMagicLink = 85; a bad code = 88', async () => {
    const { app, during } = setup();
    const email = 'dave-mwqsucno@example.com';
    const callbackUrl = 'http://localhost:3000/handler/magic-link-callback';
    expectSameRequest((await during(() => app.sendMagicLinkEmail(email, { callbackUrl })))[0], 84);
    const code = codeFromMail(await lastMailTo(service(), email));
    const signIn = await during(() => app.signInWithMagicLink(code, { noRedirect: true }));
    expect(signIn).toHaveLength(1);
    expectSameRequest(signIn[0], 85, { bodyKeys: ['code'] });
    expectSameRequest((await during(() => app.signInWithMagicLink('y'.repeat(45))))[0], 88);
  });

  it('teams: create = 26-27, update = 29-30, invite = 31, invitations = 33, members = 34, profile = 35-36, select = 38, permissions = 40-41, revoke = 44; accept = 51-53, leave = 55', async () => {
    const { app, during } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    const byCall = (sent: RecordedRequest[], method: string, path: RegExp) =>
      sent.find((request) => request.method === method && path.test(request.path));
    let teamId = '';
    const create = await during(async () => {
      teamId = (await user.createTeam({ displayName: "Alice's Team" })).id;
    });
    const ids = { 'f22c438e-7f0e-489c-abb2-105d325031fe': teamId, '246fa810-1787-42b0-99e6-cc6a8ff3aa5f': user.id };
    expectSameRequest(byCall(create, 'POST', /\/teams$/), 26, { ids });
    expectSameRequest(byCall(create, 'GET', /\/teams$/), 27, { ids });
    const team = (await user.getTeam(teamId))!;
    const update = await during(() =>
      team.update({ displayName: "Alice's Renamed Team", clientMetadata: { plan: 'pro' } }),
    );
    expectSameRequest(byCall(update, 'PATCH', /\/teams\//), 29, { ids });
    expectSameRequest(byCall(update, 'GET', /\/teams$/), 30, { ids });
    const callbackUrl = 'http://localhost:3000/handler/team-invitation';
    const invite = await during(() => team.inviteUser({ email: 'bob-mwqsucno@example.com', callbackUrl }));
    expectSameRequest(invite[0], 31, { ids });
    let invitationId = '';
    const invitations = await during(async () => {
      invitationId = (await team.listInvitations())[0]!.id;
    });
    expectSameRequest(invitations[0], 33, { ids });
    expectSameRequest((await during(() => team.listUsers()))[0], 34, { ids });
    let profile: Awaited<ReturnType<typeof user.getTeamProfile>> | undefined;
    const readProfile = await during(async () => {
      profile = await user.getTeamProfile(team);
    });
    expectSameRequest(readProfile[0], 35, { ids });
    expectSameRequest((await during(() => profile!.update({ displayName: 'Alice (team)' })))[0], 36, { ids });
    const select = await during(() => user.setSelectedTeam(team));
    expectSameRequest(byCall(select, 'PATCH', /\/users\/me$/), 38, { ids });
    expectSameRequest(byCall(select, 'GET', /\/users\/me$/), 39, { ids });
    expectSameRequest((await during(() => user.listPermissions(team)))[0], 40, { ids });
    expectSameRequest((await during(() => user.listPermissions(team, { recursive: false })))[0], 41, { ids });
    const [pending] = await team.listInvitations();
    const revoke = await during(() => pending!.revoke());
    expectSameRequest(revoke[0], 44, { ids: { ...ids, '41630b26-83f3-49bb-92de-a29bedd2d61a': invitationId } });

    const carol = 'carol-mwqsucno@example.com';
    await team.inviteUser({ email: carol, callbackUrl });
    const code = codeFromMail(await lastMailTo(service(), carol));
    const other = setup();
    await other.app.signUpWithCredential({ email: carol, password: alice.password, noRedirect: true });
    expectSameRequest((await other.during(() => other.app.verifyTeamInvitationCode(code)))[0], 51, {
      bodyKeys: ['code'],
    });
    expectSameRequest((await other.during(() => other.app.getTeamInvitationDetails(code)))[0], 52, {
      bodyKeys: ['code'],
    });
    const accept = await other.during(() => other.app.acceptTeamInvitation(code));
    expectSameRequest(accept[0], 53, { bodyKeys: ['code'] });
    const carolUser = await other.app.getUser({ or: 'throw' });
    const leave = await other.during(() => carolUser.leaveTeam(team));
    expectSameRequest(leave[0], 55, { ids });
  });
});
