/**
 * Team invitations over HTTP (wire-protocol §14.5): the mail and its link,
 * who may send, list and revoke, and accepting: only by a user who has the
 * invited address, verified (`invitation-hardening.test.ts`), once (also when two sessions race), never after the code
 * expired or the team was deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeLifetimeMs } from '../codes/codes.js';
import {
  type Answer,
  authHeaders,
  call,
  expectKnownError,
  newEmail,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { codeFromMail, lastMailTo, mailsTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
type Person = Awaited<ReturnType<typeof signUp>>;
const callback = 'http://localhost:3000/handler/team-invitation';
const as = (person: Person) => userHeaders(service, person);
const server = () => authHeaders(service, 'server');
const ok = (answer: Answer, status = 200) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('x-stack-known-error')).toBeNull();
  return answer.body;
};

let alice: Person;
let team: string;

const invite = (email: string, headers = as(alice), teamId = team) =>
  call(service, 'POST', '/team-invitations/send-code', {
    headers,
    json: { email, team_id: teamId, callback_url: callback },
  });
const pending = async (teamId = team) =>
  ok(await call(service, 'GET', `/team-invitations?team_id=${teamId}`, { headers: as(alice) })).items;
const accept = (person: Person, code: string) =>
  call(service, 'POST', '/team-invitations/accept', { headers: as(person), json: { code } });
/** A user who signed up with `email` and verified it (as the verification mail's link does). */
const invitee = async (email: string) => {
  const person = await signUp(service, email);
  ok(
    await call(service, 'PATCH', `/users/${person.user_id}`, {
      headers: server(),
      json: { primary_email_verified: true },
    }),
  );
  return person;
};
const members = async (teamId = team) =>
  ok(await call(service, 'GET', `/team-member-profiles?team_id=${teamId}`, { headers: server() })).items.map(
    (profile: { user_id: string }) => profile.user_id,
  );

beforeAll(async () => {
  service = await startTestService({ projectConfig: { client_team_creation_enabled: true } });
  alice = await signUp(service);
  team = ok(await call(service, 'POST', '/teams', { headers: as(alice), json: { display_name: 'Acme' } }), 201).id;
});
afterAll(() => service?.close());

describe('sending an invitation', () => {
  it('mails a link to the invitation page naming the team, and lists it as pending', async () => {
    const email = newEmail('grace');
    const sent = ok(await invite(email));
    expect(sent).toEqual({ success: true, id: expect.any(String) });
    const mail = await lastMailTo(service, email);
    expect(mail.kind).toBe('team_invitation');
    expect(mail.text).toContain('Acme');
    expect(mail.text).toContain(`${callback}?code=`);
    expect(await pending()).toContainEqual({
      id: sent.id,
      team_id: team,
      recipient_email: email,
      expires_at_millis: expect.any(Number),
    });
  });

  it('to the same address again replaces the pending one', async () => {
    const email = newEmail('again');
    const first = ok(await invite(email)).id;
    const second = ok(await invite(email.toUpperCase())).id;
    const ids = (await pending()).map((invitation: { id: string }) => invitation.id);
    expect(ids).toContain(second);
    expect(ids).not.toContain(first);
  });

  it('needs $invite_members from a client; server code may invite to any team', async () => {
    const bob = await signUp(service);
    ok(await call(service, 'POST', `/team-memberships/${team}/${bob.user_id}`, { headers: server(), json: {} }), 201);
    ok(
      await call(service, 'DELETE', `/team-permissions/${team}/${bob.user_id}/member`, { headers: server(), json: {} }),
    );
    const before = await snapshot(service);
    expectKnownError(await invite(newEmail(), as(bob)), 'TEAM_PERMISSION_REQUIRED', 401);
    const list = await call(service, 'GET', `/team-invitations?team_id=${team}`, { headers: as(bob) });
    expectKnownError(list, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(await snapshot(service)).toEqual(before);
    ok(await invite(newEmail(), server()));
  });

  it('refuses an untrusted page, a bad address, an unknown team and unknown fields, sending nothing', async () => {
    const before = await snapshot(service);
    const email = newEmail('refused');
    const untrusted = await call(service, 'POST', '/team-invitations/send-code', {
      headers: as(alice),
      json: { email, team_id: team, callback_url: 'https://evil.example/steal' },
    });
    expectKnownError(untrusted, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expectKnownError(await invite('not an address'), 'SCHEMA_ERROR', 400);
    const unknownTeam = '00000000-0000-4000-8000-000000000000';
    expectKnownError(await invite(email, as(alice), unknownTeam), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await invite(email, server(), unknownTeam), 'TEAM_NOT_FOUND', 404);
    const extra = await call(service, 'POST', '/team-invitations/send-code', {
      headers: as(alice),
      json: { email, team_id: team, callback_url: callback, role: 'owner' },
    });
    expectKnownError(extra, 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
    expect(await mailsTo(service, email)).toEqual([]);
  });
});

describe('accepting', () => {
  it('works signed out for the details, then lets the invited person in with member permissions, once', async () => {
    const email = newEmail('carol');
    ok(await invite(email));
    const code = codeFromMail(await lastMailTo(service, email));
    const anonymous = authHeaders(service);
    expect(
      ok(await call(service, 'POST', '/team-invitations/accept/check-code', { headers: anonymous, json: { code } })),
    ).toEqual({
      is_code_valid: true,
    });
    const details = ok(
      await call(service, 'POST', '/team-invitations/accept/details', {
        headers: anonymous,
        json: { code: code.toUpperCase() },
      }),
    );
    expect(details).toEqual({ team_id: team, team_display_name: 'Acme', recipient_email: email });
    // Accepting signed out: the code is good, but a user must sign in first; the code stays usable.
    const before = await snapshot(service);
    const signedOut = await call(service, 'POST', '/team-invitations/accept', { headers: anonymous, json: { code } });
    expectKnownError(signedOut, 'USER_AUTHENTICATION_REQUIRED', 401);
    expect(await snapshot(service)).toEqual(before);

    const carol = await invitee(email);
    expect(ok(await accept(carol, code))).toEqual({});
    expect(await members()).toContain(carol.user_id);
    const held = ok(
      await call(service, 'GET', `/team-permissions?team_id=${team}&user_id=me&recursive=false`, {
        headers: as(carol),
      }),
    );
    expect(held.items.map((item: { id: string }) => item.id)).toEqual(['member']);
    const user = ok(await call(service, 'GET', '/users/me', { headers: as(carol) }));
    expect(user.primary_email_verified).toBe(true);
    expectKnownError(await accept(carol, code), 'VERIFICATION_CODE_ALREADY_USED', 409);
    expect(
      (await pending()).map((invitation: { recipient_email: string }) => invitation.recipient_email),
    ).not.toContain(email);
  });

  it('refuses an account without the invited address (a leaked link), which the invited person can still use', async () => {
    const email = newEmail('dave');
    ok(await invite(email));
    const code = codeFromMail(await lastMailTo(service, email));
    const mallory = await signUp(service);
    const before = await snapshot(service);
    expectKnownError(await accept(mallory, code), 'EMAIL_NOT_ASSOCIATED_WITH_USER', 400);
    expect(await snapshot(service)).toEqual(before);
    const dave = await invitee(email.toUpperCase());
    ok(await accept(dave, code));
    expect(await members()).toContain(dave.user_id);
    expect(await members()).not.toContain(mallory.user_id);
  });

  it('from two sessions at once makes one membership', async () => {
    const email = newEmail('erin');
    ok(await invite(email));
    const code = codeFromMail(await lastMailTo(service, email));
    const erin = await invitee(email);
    const other = ok(
      await call(service, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(service),
        json: { email, password: erin.password },
      }),
    );
    const answers = await Promise.all([accept(erin, code), accept({ ...erin, ...other }, code)]);
    const codes = answers.map((answer) => answer.headers.get('x-stack-known-error'));
    expect(codes.sort()).toEqual(['VERIFICATION_CODE_ALREADY_USED', null].sort());
    expect((await members()).filter((id: string) => id === erin.user_id)).toHaveLength(1);
  });

  it('fails once the code expired, was revoked, or its team was deleted', async () => {
    const revoked = newEmail('revoked');
    const { id } = ok(await invite(revoked));
    const revokedCode = codeFromMail(await lastMailTo(service, revoked));
    ok(await call(service, 'DELETE', `/team-invitations/${id}?team_id=${team}`, { headers: as(alice) }));
    const again = await call(service, 'DELETE', `/team-invitations/${id}?team_id=${team}`, { headers: as(alice) });
    expectKnownError(again, 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await accept(await invitee(revoked), revokedCode), 'VERIFICATION_CODE_NOT_FOUND', 404);

    const doomed = ok(
      await call(service, 'POST', '/teams', { headers: as(alice), json: { display_name: 'Doomed' } }),
      201,
    ).id;
    const orphan = newEmail('orphan');
    ok(await invite(orphan, as(alice), doomed));
    const orphanCode = codeFromMail(await lastMailTo(service, orphan));
    ok(await call(service, 'DELETE', `/teams/${doomed}`, { headers: as(alice) }));
    const details = await call(service, 'POST', '/team-invitations/accept/details', {
      headers: authHeaders(service),
      json: { code: orphanCode },
    });
    expectKnownError(details, 'TEAM_NOT_FOUND', 404);
    expect(details.body.details).toEqual({ team_id: doomed });
    expectKnownError(await accept(await invitee(orphan), orphanCode), 'TEAM_NOT_FOUND', 404);

    // Last: moving the clock past the code's life also ends the sessions above.
    const expiring = newEmail('late');
    ok(await invite(expiring));
    const lateCode = codeFromMail(await lastMailTo(service, expiring));
    service.clock.advance(codeLifetimeMs.team_invitation + 1000);
    expectKnownError(await accept(await invitee(expiring), lateCode), 'VERIFICATION_CODE_EXPIRED', 400);
  });

  it('refuses malformed codes, answers an unknown one of 45 characters not found, and needs a signed-in user', async () => {
    const details = (code: unknown) =>
      call(service, 'POST', '/team-invitations/accept/details', { headers: authHeaders(service), json: { code } });
    for (const code of ['short', 'a'.repeat(46), 42]) {
      expectKnownError(await details(code), 'SCHEMA_ERROR', 400);
    }
    for (const code of ['u'.repeat(45), `${'-'.repeat(40)}abcde`]) {
      expectKnownError(await details(code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    }
    // Signed out, the code is checked first: an unknown one is not found.
    const signedOut = await call(service, 'POST', '/team-invitations/accept', {
      headers: authHeaders(service),
      json: { code: 'a'.repeat(45) },
    });
    expectKnownError(signedOut, 'VERIFICATION_CODE_NOT_FOUND', 404);
    const sent = await call(service, 'POST', '/team-invitations/send-code', {
      headers: authHeaders(service),
      json: { email: newEmail('x'), team_id: team, callback_url: 'http://localhost:3000/handler/team-invitation' },
    });
    expectKnownError(sent, 'USER_AUTHENTICATION_REQUIRED', 401);
  });
});
