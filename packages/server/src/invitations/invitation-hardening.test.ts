/**
 * What a team invitation must not give away, on PGlite and PostgreSQL: a
 * leaked link does not let another account in by adding the invited address
 * unverified beside its own ways in, nor verify it, while a fresh sign-up with
 * the invited address accepts and the invitation verifies it; the mail is no
 * phishing vehicle (a team name's URL is not a link, the subject does not
 * carry the name, the inviter is named) and inviting is rate-limited per
 * inviter and per team.
 */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { invitationLimits } from '../rate-limit/rate-limit.js';
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
import { describeEachBackend } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';

type Person = Awaited<ReturnType<typeof signUp>>;

/** A 429 with Retry-After, as the SDK sees it (the override header turns the status into 200 + the real one). */
function expectRateLimited(answer: Answer): void {
  expect(answer.headers.get(h.actualStatus)).toBe('429');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}
const callback = 'http://localhost:3000/handler/team-invitation';

describeEachBackend('team invitations', ({ databaseUrl }) => {
  let service: TestService;
  let alice: Person;
  let team: string;

  const as = (person: Person) => userHeaders(service, person);
  const server = () => authHeaders(service, 'server');
  const ok = (answer: Answer, status = 200) => {
    expect(answer.status, answer.text).toBe(status);
    return answer.body;
  };
  const invite = (email: string, headers = as(alice), teamId = team) =>
    call(service, 'POST', '/team-invitations/send-code', {
      headers,
      json: { email, team_id: teamId, callback_url: callback },
    });
  const accept = (person: Person, code: string) =>
    call(service, 'POST', '/team-invitations/accept', { headers: as(person), json: { code } });
  const members = async () =>
    ok(await call(service, 'GET', `/team-member-profiles?team_id=${team}`, { headers: server() })).items.map(
      (profile: { user_id: string }) => profile.user_id,
    );
  const channels = async (person: Person) =>
    ok(await call(service, 'GET', '/contact-channels?user_id=me', { headers: as(person) })).items as {
      value: string;
      is_verified: boolean;
    }[];
  /** Marks the person's primary address verified, as a verification link would. */
  const verify = async (person: Person) =>
    ok(
      await call(service, 'PATCH', `/users/${person.user_id}`, {
        headers: server(),
        json: { primary_email_verified: true },
      }),
    );

  beforeAll(async () => {
    service = await startTestService({
      databaseUrl,
      // Many invitations from one test client: its per-client mail limit is not what these tests count.
      projectConfig: { client_team_creation_enabled: true, rate_limits: { mails_per_client: 10_000 } },
    });
    alice = await signUp(service);
    team = ok(await call(service, 'POST', '/teams', { headers: as(alice), json: { display_name: 'Acme' } }), 201).id;
  });
  afterAll(() => service?.close());

  it('a leaked link does not let another account in by adding the invited address unverified, nor verify it', async () => {
    const invited = newEmail('victim');
    ok(await invite(invited));
    const code = codeFromMail(await lastMailTo(service, invited));
    const mallory = await signUp(service);
    ok(
      await call(service, 'POST', '/contact-channels', {
        headers: as(mallory),
        json: { user_id: 'me', type: 'email', value: invited, used_for_auth: false },
      }),
      201,
    );
    const before = await snapshot(service);
    expectKnownError(await accept(mallory, code), 'EMAIL_NOT_ASSOCIATED_WITH_USER', 400);
    expect(await snapshot(service)).toEqual(before);
    expect(await members()).not.toContain(mallory.user_id);
    expect((await channels(mallory)).find((channel) => channel.value === invited)?.is_verified).toBe(false);
  });

  it('a fresh sign-up with the invited address accepts, and the code mailed to it verifies the address', async () => {
    const email = newEmail('grace');
    ok(await invite(email));
    const code = codeFromMail(await lastMailTo(service, email));
    const grace = await signUp(service, email);
    expect((await channels(grace))[0]).toMatchObject({ value: email, is_verified: false });
    expect(ok(await accept(grace, code))).toEqual({});
    expect(await members()).toContain(grace.user_id);
    expect(await channels(grace)).toEqual([expect.objectContaining({ value: email, is_verified: true })]);
    const user = ok(await call(service, 'GET', '/users/me', { headers: as(grace) }));
    expect(user.primary_email_verified).toBe(true);
  });

  it('an unverified invited address beside another one is refused until it is verified, and stays as it was', async () => {
    const email = newEmail('hedy');
    ok(await invite(email));
    const code = codeFromMail(await lastMailTo(service, email));
    const hedy = await signUp(service, email);
    ok(
      await call(service, 'POST', '/contact-channels', {
        headers: as(hedy),
        json: { user_id: 'me', type: 'email', value: newEmail('hedy-other'), used_for_auth: false },
      }),
      201,
    );
    const before = await snapshot(service);
    expectKnownError(await accept(hedy, code), 'EMAIL_NOT_ASSOCIATED_WITH_USER', 400);
    expect(await snapshot(service)).toEqual(before);
    await verify(hedy);
    expect(ok(await accept(hedy, code))).toEqual({});
    expect(await members()).toContain(hedy.user_id);
  });

  it('phishing text in invitation mails: a URL in the team name is no link, stays out of the subject, and the inviter is named', async () => {
    const lure = 'Security alert: sign in at https://evil.example/login or www.evil.example now';
    const mallory = await signUp(service);
    ok(
      await call(service, 'PATCH', '/users/me', {
        headers: as(mallory),
        json: { display_name: 'Mallory Example' },
      }),
    );
    const lureTeam = ok(
      await call(service, 'POST', '/teams', { headers: as(mallory), json: { display_name: lure } }),
      201,
    ).id;
    const victim = newEmail('target');
    ok(await invite(victim, as(mallory), lureTeam));
    const answer = await fetch(`${service.mailboxUrl}/api/messages?to=${encodeURIComponent(victim)}`);
    const [mail] = (await answer.json()).items as { subject: string; html: string; text: string }[];
    expect(mail!.subject).not.toContain('evil');
    expect(mail!.subject).toContain('Test project');
    for (const part of [mail!.html, mail!.text]) {
      expect(part).not.toMatch(/https?:\/\/evil/);
      expect(part).not.toMatch(/evil\.example/);
      expect(part.replaceAll('\u200b', '')).toContain(`Invited by Mallory Example (${mallory.email}).`);
    }
    expect(mail!.html).not.toMatch(/href="[^"]*evil/);
    const links = [...mail!.html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
    expect(links.every((link) => link.startsWith(`${callback}?code=`))).toBe(true);
    // Still readable as the name it is, with only invisible breaks added.
    expect(mail!.text.replaceAll('\u200b', '')).toContain(lure);
  });

  it('the invitation after the limit per inviter, then per team, is 429 with Retry-After', async () => {
    service.clock.startWindow(10 * 60_000);
    const owner = await signUp(service);
    const teamId = ok(
      await call(service, 'POST', '/teams', { headers: as(owner), json: { display_name: 'Busy' } }),
      201,
    ).id;
    const inviters = [owner, await signUp(service), await signUp(service)];
    for (const inviter of inviters.slice(1)) {
      const path = `/team-memberships/${teamId}/${inviter.user_id}`;
      ok(await call(service, 'POST', path, { headers: server(), json: {} }), 201);
      ok(
        await call(service, 'POST', `/team-permissions/${teamId}/${inviter.user_id}/admin`, {
          headers: server(),
          json: {},
        }),
        201,
      );
    }
    for (let i = 0; i < invitationLimits.perInviter; i++) ok(await invite(newEmail('busy'), as(owner), teamId));
    expectRateLimited(await invite(newEmail('busy'), as(owner), teamId));

    const second = invitationLimits.perTeam - invitationLimits.perInviter;
    for (let i = 0; i < second; i++) ok(await invite(newEmail('busy'), as(inviters[1]!), teamId));
    expectRateLimited(await invite(newEmail('busy'), as(inviters[2]!), teamId));
    // Another team of the same project, and server code, are not held back.
    const own = ok(
      await call(service, 'POST', '/teams', { headers: as(inviters[2]!), json: { display_name: 'Own' } }),
      201,
    ).id;
    ok(await invite(newEmail('elsewhere'), as(inviters[2]!), own));
    ok(await invite(newEmail('server'), server(), teamId));
  });
});
