/**
 * Acceptance of the official SDK's requests (../shared/protocol-requests.jsonl):
 * every recorded request to a route of this slice is replayed against a real
 * service, with our project id, keys, tokens, user and channel ids, and the
 * codes our service mailed put in place of the recorded ones. Each must be accepted (no SCHEMA_ERROR or BODY_PARSING_ERROR,
 * never a 5xx); the request that triggers an operation labelled `-> CODE` must
 * fail with exactly that code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { detailsProblem, headers as h, internalProjectId, isKnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContent, outboxSealer } from './mail/sealed-mail.js';
import { createApiKeySet } from './operations.js';
import { insertProjectOwner } from './projects/project-owner-store.js';
import { dbOf } from './storage/open-storage.js';
import { type Answer, authHeaders, call, newEmail } from './test-support/api.js';
import { startTestService, type TestKeys, type TestService } from './testing/index.js';
import { TestBrowser } from './testing/oauth-browser.js';

interface Line {
  seq: number;
  label: string | null;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

const candidates = ['../../../../shared/protocol-requests.jsonl', '../../../shared/protocol-requests.jsonl'].map(
  (relative) => fileURLToPath(new URL(relative, import.meta.url)),
);
const file = candidates.find((path) => existsSync(path));
// The vectors are the ground truth of compatibility: without them this suite fails rather than skips.
if (!file) throw new Error(`the official SDK's request vectors are missing: none of ${candidates.join(', ')} exists`);

const lines: Line[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((text) => text.trim())
  .map((text) => JSON.parse(text));

const routes = new Set([
  'GET /projects/current',
  'POST /auth/password/sign-up',
  'POST /auth/password/sign-in',
  'GET /users/me',
  'PATCH /users/me',
  'DELETE /users/me',
  'DELETE /auth/sessions/current',
  'POST /auth/sessions',
  'POST /check-feature-support',
  'GET /users',
  'POST /users',
  'GET /users/:id',
  'PATCH /users/:id',
  'DELETE /users/:id',
  'PATCH /projects/current',
  'GET /internal/api-keys',
  'POST /internal/api-keys',
  'PATCH /internal/api-keys/:id',
  'GET /internal/projects',
  'POST /internal/projects',
  'GET /internal/metrics',
  'POST /auth/password/send-reset-code',
  'POST /auth/password/reset/check-code',
  'POST /auth/password/reset',
  'POST /auth/password/update',
  'POST /auth/otp/send-sign-in-code',
  'POST /auth/otp/sign-in',
  'GET /contact-channels',
  'POST /contact-channels',
  'PATCH /contact-channels/me/:id',
  'DELETE /contact-channels/me/:id',
  'PATCH /contact-channels/:id/:id',
  'DELETE /contact-channels/:id/:id',
  'POST /contact-channels/:id/:id/send-verification-code',
  'POST /contact-channels/send-verification-code',
  'POST /contact-channels/verify',
  'GET /email-templates',
  'PATCH /email-templates/magic_link',
  'DELETE /email-templates/magic_link',
  'POST /internal/send-test-email',
  'POST /teams',
  'GET /teams',
  'PATCH /teams/:id',
  'DELETE /teams/:id',
  'POST /team-memberships/:id/:id',
  'DELETE /team-memberships/:id/:id',
  'DELETE /team-memberships/:id/me',
  'GET /team-member-profiles',
  'GET /team-member-profiles/:id/me',
  'GET /team-member-profiles/:id/:id',
  'PATCH /team-member-profiles/:id/:id',
  'GET /team-permissions',
  'POST /team-permissions/:id/:id/admin',
  'POST /team-permissions/:id/:id/does_not_exist',
  'DELETE /team-permissions/:id/:id/admin',
  'GET /team-permission-definitions',
  'POST /team-permission-definitions',
  'PATCH /team-permission-definitions/billing_manager',
  'DELETE /team-permission-definitions/billing_manager',
  'POST /team-invitations/send-code',
  'GET /team-invitations',
  'DELETE /team-invitations/:id',
  'POST /team-invitations/accept/check-code',
  'POST /team-invitations/accept/details',
  'POST /team-invitations/accept',
  'GET /auth/oauth/authorize/github',
  'POST /connected-accounts/me/github/access-token',
  'POST /connected-accounts/:id/github/access-token',
  'POST /auth/passkey/initiate-passkey-authentication',
  'POST /auth/passkey/initiate-passkey-registration',
]);

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** The id the SDK's tests used for a user that does not exist. */
const missingUser = '00000000-0000-4000-8000-000000000000';

const pathOf = (line: Line) => line.path.replace(/^\/api\/v1/, '');
const isRefresh = (line: Line) => pathOf(line) === '/auth/oauth/token' && line.body?.grant_type === 'refresh_token';
const isCodeExchange = (line: Line) =>
  pathOf(line) === '/auth/oauth/token' && line.body?.grant_type === 'authorization_code';
const routeOf = (line: Line) => `${line.method} ${pathOf(line).replace(new RegExp(`/${uuid.source}`, 'g'), '/:id')}`;
const inSlice = (line: Line) => routes.has(routeOf(line)) || isRefresh(line) || isCodeExchange(line);
const opensSession = (line: Line) =>
  line.method === 'POST' &&
  (/^\/auth\/(password\/sign-(in|up)|otp\/sign-in|mfa\/sign-in|passkey\/sign-in|sessions)$/.test(pathOf(line)) ||
    (pathOf(line) === '/auth/oauth/token' && line.body?.grant_type === 'authorization_code'));

/** Requests of this slice not replayed, and why. */
const skipped = new Map([[90, 'sets a TOTP secret: multi-factor authentication is a later slice']]);

/** Answers that differ from the recorded run: earlier out-of-slice calls were not replayed, or we differ on purpose. */
const divergent = new Map<number, string>([
  // The SDK re-reads its cached getUser(unknown id) after later operations: still no such user.
  ...[128, 133, 139, 151, 192].map((seq) => [seq, 'USER_NOT_FOUND'] as [number, string]),
  // Signs out the session of request 2, which the password reset of request 73 ended: a reset ends every session of the
  // user here (the original backend kept them). The SDK treats the session as ended either way (spec §4).
  // With immediate sign-out that session's access token is refused too, first: the SDK refreshes,
  // is refused, and is signed out, as the recorded run ended.
  [108, 'ACCESS_TOKEN_EXPIRED'],
  [109, 'ACCESS_TOKEN_EXPIRED'],
  // Recorded as answers the SDK maps to "no connected account" (47) and throws (189, shared keys, §9.3).
  [47, 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER'],
  [189, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS'],
]);

/** Which mail carries the codes a route takes (the recorded codes are replaced by the ones our service mailed). */
const codeKinds: [RegExp, string][] = [
  [/^\/auth\/password\/reset/, 'password_reset'],
  [/^\/contact-channels\/verify/, 'email_verification'],
  [/^\/auth\/otp\/sign-in$/, 'magic_link'],
  [/^\/team-invitations\/accept/, 'team_invitation'],
];

/** The code each line must fail with: the trigger of a `-> CODE` operation is its last non-GET request. */
function expectedCodes(all: Line[]): Map<number, string> {
  const expected = new Map<number, string>();
  let i = 0;
  while (i < all.length) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.label === all[i]!.label) j++;
    const code = all[i]!.label?.match(/-> ([A-Z_]+)$/)?.[1];
    if (code) {
      const operation = all.slice(i, j + 1);
      const trigger = operation.filter((line) => line.method !== 'GET').at(-1) ?? operation.at(-1)!;
      expected.set(trigger.seq, code);
    }
    i = j + 1;
  }
  return expected;
}

/** The most frequent value of a header per project: the recorded project's real keys (not `pck_bad`). */
function recordedKeys(all: Line[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const line of all) {
    for (const name of [h.publishableClientKey, h.secretServerKey, h.superSecretAdminKey]) {
      const value = line.headers[name];
      if (value) {
        const key = `${line.headers[h.projectId]}|${name}|${value}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  const best = new Map<string, [string, number]>();
  for (const [key, count] of counts) {
    const [project, name, value] = key.split('|') as [string, string, string];
    const slot = `${project}|${name}`;
    if ((best.get(slot)?.[1] ?? 0) < count) best.set(slot, [value, count]);
  }
  return new Map([...best].map(([slot, [value]]) => [value, slot]));
}

interface Tokens {
  access_token: string;
  refresh_token: string;
}

describe('requests of the official SDK 2.7.23', () => {
  let service: TestService;
  let internalKeys: TestKeys;

  beforeAll(async () => {
    service = await startTestService({
      projectConfig: {
        client_user_deletion_enabled: true,
        magic_link_enabled: true,
        client_team_creation_enabled: true,
        oauth_providers: [{ id: 'github', type: 'shared', enabled: true }],
        // The recorded project had passkey sign-in on: its initiation succeeded.
        passkey_enabled: true,
      },
    });
    internalKeys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
  });
  afterAll(() => service?.close());

  it('are accepted, and refused with exactly the recorded code', async () => {
    const recordedProject = lines[0]!.headers[h.projectId]!;
    const keyOf = recordedKeys(lines);
    const expected = expectedCodes(lines);
    const project = (recorded: string | undefined) => (recorded === recordedProject ? service.projectId : recorded);
    const ourKeys = (projectId: string | undefined): TestKeys =>
      projectId === internalProjectId ? internalKeys : service.keys;
    const kindOf = {
      [h.publishableClientKey]: 'publishableClientKey',
      [h.secretServerKey]: 'secretServerKey',
      [h.superSecretAdminKey]: 'superSecretAdminKey',
    } as const;

    const sessions = new Map<string, Tokens & { projectId: string }>();
    const accessTokens = new Map<string, string>();
    const users = new Map<string, string>();
    let pending: (Tokens & { projectId: string }) | null = null;

    const freshSession = async (projectId: string) => {
      const headers: Record<string, string> = {
        ...authHeaders(service),
        [h.projectId]: projectId,
        [h.publishableClientKey]: ourKeys(projectId).publishableClientKey,
      };
      const answer = await call(service, 'POST', '/auth/password/sign-up', {
        headers,
        json: { email: newEmail('replay'), password: 'correct-horse-1' },
      });
      return { ...(answer.body as Tokens & { user_id: string }), projectId };
    };
    const sessionFor = async (recordedRefresh: string, projectId: string) => {
      let session = sessions.get(recordedRefresh);
      if (!session) {
        session = pending?.projectId === projectId ? pending : await freshSession(projectId);
        pending = null;
        sessions.set(recordedRefresh, session);
      }
      return session;
    };

    const failures: string[] = [];
    const answers = new Map<number, Answer>();
    let replayed = 0;
    let lastKeySetId = '';
    let lastChannelId = '';
    let lastInvitationId = '';
    let oauthCode = '';
    // Teams our service created and no recorded id names yet: a recorded team id, when first seen, names the
    // oldest of them (the recorded run created its teams in the same order).
    const teams = new Map<string, string>();
    const unmatchedTeams: string[] = [];
    const ourTeam = (recorded: string) => {
      if (!teams.has(recorded)) teams.set(recorded, unmatchedTeams.shift() ?? recorded);
      return teams.get(recorded)!;
    };
    // Codes our service mailed, newest per mail kind, and which recorded code stands for which of ours.
    const mailedCodes = new Map<string, string>();
    const mailSealer = outboxSealer(service.secret);
    const codes = new Map<string, string>();
    let mailsSeen = 0;
    const readNewMails = async () => {
      const mails = await dbOf(service.storage)
        .selectFrom('email_outbox')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .offset(mailsSeen)
        .limit(1000)
        .execute();
      mailsSeen += mails.length;
      for (const mail of mails) {
        // Bodies are sealed at rest: opened with the service's secret, as the worker does.
        const code = /[?&]code=([0-9a-z]{45})\b/.exec(openContent(mailSealer, mail)?.text ?? '')?.[1];
        if (code) mailedCodes.set(mail.kind, code);
      }
    };
    for (const line of lines) {
      if (!inSlice(line) || skipped.has(line.seq)) {
        if (opensSession(line)) pending = null;
        continue;
      }
      replayed++;
      const projectId = project(
        line.headers[h.projectId] ?? ((line.body?.client_id ?? line.query.client_id) as string | undefined),
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(line.headers)) {
        const slot = keyOf.get(value);
        headers[name] =
          name === h.projectId
            ? project(value)!
            : name in kindOf && slot === `${line.headers[h.projectId]}|${name}`
              ? ourKeys(projectId)[kindOf[name as keyof typeof kindOf]]
              : value;
      }
      const recordedRefresh = line.headers[h.refreshToken];
      let sessionUser: string | undefined;
      if (recordedRefresh) {
        const session = await sessionFor(recordedRefresh, projectId!);
        sessionUser = (session as { user_id?: string }).user_id;
        headers[h.refreshToken] = session.refresh_token;
        if (line.headers[h.accessToken]) {
          accessTokens.set(line.headers[h.accessToken]!, session.access_token);
          headers[h.accessToken] = session.access_token;
        }
      }
      const adminToken = line.headers[h.adminAccessToken];
      if (adminToken) {
        headers[h.adminAccessToken] = accessTokens.get(adminToken) ?? adminToken;
        // The recorded dashboard user owned the recorded project; ours is made the owner of ours.
        const owner = [...sessions.values()].find((s) => s.access_token === headers[h.adminAccessToken]) as
          | { user_id?: string }
          | undefined;
        if (owner?.user_id && projectId) {
          await insertProjectOwner(dbOf(service.storage), projectId, owner.user_id, new Date());
        }
      }

      let body: string | undefined;
      let session: (Tokens & { projectId: string }) | undefined;
      if (line.method === 'GET' && pathOf(line).startsWith('/auth/oauth/authorize/')) {
        // A browser navigation: follow it through the development stand-in back to the app's callback.
        const query = {
          ...line.query,
          client_id: projectId!,
          client_secret: ourKeys(projectId).publishableClientKey,
        };
        const browser = new TestBrowser();
        const page = await browser.go(`${service.apiUrl}${pathOf(line)}?${new URLSearchParams(query)}`);
        const pageQuery = Object.fromEntries(new URL(page.url).searchParams);
        const back = await browser.go(page.url, {
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ ...pageQuery, name: 'Replay', email: newEmail('oauth') }),
          },
        });
        const landed = new URL(back.url);
        if (
          `${landed.origin}${landed.pathname}` !== line.query.redirect_uri ||
          landed.searchParams.get('state') !== line.query.state
        ) {
          failures.push(`#${line.seq} authorize: landed on ${back.url}`);
        }
        oauthCode = landed.searchParams.get('code') ?? '';
        continue;
      }
      if (isCodeExchange(line)) {
        const fields: Record<string, string> = {
          ...(line.body as Record<string, string>),
          code: oauthCode,
          client_id: projectId!,
          client_secret: ourKeys(projectId).publishableClientKey,
        };
        body = new URLSearchParams(fields).toString();
      } else if (isRefresh(line)) {
        session = await sessionFor(line.body!.refresh_token as string, projectId!);
        const fields: Record<string, string> = {
          ...(line.body as Record<string, string>),
          refresh_token: session.refresh_token,
          client_id: projectId!,
          client_secret: ourKeys(projectId).publishableClientKey,
        };
        body = new URLSearchParams(fields).toString();
      } else if (line.body !== null) {
        const json = { ...line.body };
        const kind = codeKinds.find(([pattern]) => pattern.test(pathOf(line)))?.[1];
        // A "bad code" operation keeps its made-up code; a real one is the code our service mailed.
        if (kind && typeof json.code === 'string' && expected.get(line.seq) !== 'VERIFICATION_CODE_NOT_FOUND') {
          if (!codes.has(json.code)) codes.set(json.code, mailedCodes.get(kind) ?? json.code);
          json.code = codes.get(json.code);
        }
        for (const field of ['user_id', 'creator_user_id'] as const) {
          const recordedUser = json[field];
          if (typeof recordedUser !== 'string' || recordedUser === 'me') continue;
          if (!users.has(recordedUser)) users.set(recordedUser, (await freshSession(projectId!)).user_id as string);
          json[field] = users.get(recordedUser);
        }
        if (typeof json.team_id === 'string') json.team_id = ourTeam(json.team_id);
        if (typeof json.selected_team_id === 'string') json.selected_team_id = ourTeam(json.selected_team_id);
        body = JSON.stringify(json);
      }

      // Recorded user ids in the path or the cursor name users of ours (one each); the missing-user probe stays.
      const ourUser = async (recorded: string) => {
        if (recorded === missingUser) return recorded;
        if (!users.has(recorded)) users.set(recorded, (await freshSession(projectId!)).user_id as string);
        return users.get(recorded)!;
      };
      let path = pathOf(line);
      const pathId = path.match(new RegExp(`^/users/(${uuid.source})$`))?.[1];
      if (pathId) path = `/users/${await ourUser(pathId)}`;
      const accountOwner = path.match(new RegExp(`^/connected-accounts/(${uuid.source})/`))?.[1];
      if (accountOwner) path = path.replace(accountOwner, await ourUser(accountOwner));
      // A recorded key set id names the set the SDK created just before.
      if (new RegExp(`^/internal/api-keys/${uuid.source}$`).test(path)) path = `/internal/api-keys/${lastKeySetId}`;
      // A recorded contact channel names the channel the SDK created just before, of the user named beside it.
      const channel = path.match(new RegExp(`^/contact-channels/(me|${uuid.source})/${uuid.source}(/.*)?$`));
      if (channel) {
        const owner = channel[1] === 'me' ? 'me' : await ourUser(channel[1]!);
        path = `/contact-channels/${owner}/${lastChannelId}${channel[2] ?? ''}`;
      }
      // A team route names a team, then maybe a user: a client names only itself (the session's user).
      const teamPath = path.match(
        new RegExp(
          `^/(teams|team-memberships|team-member-profiles|team-permissions)/(${uuid.source})(?:/(${uuid.source}|me))?(/.*)?$`,
        ),
      );
      if (teamPath) {
        const [, kind, team, member, rest] = teamPath;
        let ourMember = member;
        if (member && member !== 'me') {
          if (!users.has(member) && line.headers[h.accessType] === 'client' && sessionUser)
            users.set(member, sessionUser);
          ourMember = await ourUser(member);
        }
        path = `/${kind}/${ourTeam(team!)}${ourMember ? `/${ourMember}` : ''}${rest ?? ''}`;
      }
      if (new RegExp(`^/team-invitations/${uuid.source}$`).test(path)) path = `/team-invitations/${lastInvitationId}`;
      const query = { ...line.query };
      if (query.team_id && uuid.test(query.team_id)) query.team_id = ourTeam(query.team_id);
      if (query.cursor && uuid.test(query.cursor)) query.cursor = await ourUser(query.cursor);
      if (query.user_id && uuid.test(query.user_id)) query.user_id = await ourUser(query.user_id);
      const search = new URLSearchParams(query).toString();
      if (line.method === 'POST' && path === '/team-invitations/accept' && sessionUser) {
        // Here an invitation is accepted only by a verified invited address (the recorded backend took an
        // unverified one); the invitee first opens the verification mail her sign-up sent, done here by server code.
        const keys = ourKeys(projectId);
        const verified = await call(service, 'PATCH', `/users/${sessionUser}`, {
          headers: {
            [h.projectId]: projectId!,
            [h.accessType]: 'server',
            [h.publishableClientKey]: keys.publishableClientKey,
            [h.secretServerKey]: keys.secretServerKey,
          },
          json: { primary_email_verified: true },
        });
        expect(verified.status).toBe(200);
      }
      const answer = await call(service, line.method, search ? `${path}?${search}` : path, { headers, body });
      answers.set(line.seq, answer);
      if (line.method === 'POST' && path === '/internal/api-keys') lastKeySetId = answer.body.id;
      if (line.method === 'POST' && path === '/contact-channels') lastChannelId = answer.body.id;
      if (line.method === 'POST' && path === '/teams' && answer.body.id) unmatchedTeams.push(answer.body.id);
      if (line.method === 'POST' && path === '/team-invitations/send-code') lastInvitationId = answer.body.id;
      await readNewMails();
      const status = Number(answer.headers.get(h.actualStatus) ?? answer.status);
      const code = answer.headers.get(h.knownError);
      const want = divergent.get(line.seq) ?? expected.get(line.seq);
      const where = `#${line.seq} ${line.method} ${pathOf(line)} (${line.label})`;
      if (status >= 500) failures.push(`${where}: status ${status}`);
      else if (want) {
        if (code !== want) failures.push(`${where}: expected ${want}, got ${code ?? status}`);
        else if (isKnownErrorCode(code) && detailsProblem(code, answer.body.details)) {
          failures.push(`${where}: ${detailsProblem(code, answer.body.details)}`);
        }
      } else if (status >= 300 || code) {
        failures.push(`${where}: expected success, got ${code ?? status} ${answer.text.slice(0, 200)}`);
      }

      if (status === 200 && opensSession(line)) pending = { ...(answer.body as Tokens), projectId: projectId! };
      if (status === 200 && isCodeExchange(line)) {
        // The recorded user of the OAuth sign-in is the subject of the next recorded access token.
        const next = lines.find((later) => later.seq > line.seq && later.headers[h.accessToken]);
        const recordedUser =
          next && JSON.parse(Buffer.from(next.headers[h.accessToken]!.split('.')[1]!, 'base64url').toString()).sub;
        if (recordedUser) users.set(recordedUser, answer.body.user_id);
      }
      if (session && status === 200) session.access_token = answer.body.access_token;
    }

    expect(failures).toEqual([]);
    expect(replayed).toBe(lines.filter(inSlice).length - skipped.size);
    expect(replayed).toBeGreaterThan(95);
    // The substitutions follow the recorded sessions: spot checks.
    const bySeq = (seq: number) => lines.find((line) => line.seq === seq)!;
    expect(answers.get(5)?.body.primary_email).toBe(bySeq(2).body!.email);
    expect(answers.get(7)?.body).toMatchObject({ display_name: 'Alice', client_metadata: { theme: 'dark', n: 1 } });
    expect(answers.get(182)?.body.id).toBe(users.get(bySeq(181).body!.user_id as string));
    expect(answers.get(186)?.body.id).toBe(users.get(bySeq(181).body!.user_id as string));
    expect(answers.get(202)?.body).toHaveProperty('user_count');
    expect(answers.get(207)?.body).not.toHaveProperty('user_count');
    // The mailed codes took the recorded ones' places: verification, reset and magic link did their work.
    expect(answers.get(13)?.body.primary_email_verified).toBe(true);
    expect(answers.get(76)?.body.user_id).toBe(answers.get(2)?.body.user_id);
    expect(answers.get(85)?.body.is_new_user).toBe(true);
    // Teams: the renamed team is selected, its creator holds `admin` and what it contains, the invitation
    // mailed to carol names the team and lets her in, and the server-made team lists its added member.
    expect(answers.get(39)?.body.selected_team).toMatchObject({ display_name: "Alice's Renamed Team" });
    const held = (seq: number) => answers.get(seq)?.body.items.map((item: { id: string }) => item.id);
    expect(held(40)).toEqual([
      '$delete_team',
      '$invite_members',
      '$read_members',
      '$remove_members',
      '$update_team',
      'admin',
    ]);
    expect(held(41)).toEqual(['admin']);
    expect(answers.get(52)?.body.team_display_name).toBe("Alice's Renamed Team");
    expect(answers.get(53)?.status).toBe(200);
    expect(answers.get(156)?.body.items).toHaveLength(2);
    expect(held(162)).toEqual(['admin', 'member']);
    expect(held(168)).toEqual(['member']);
  });
});
