/**
 * What a team invitation must not give away, on PGlite and PostgreSQL: a
 * leaked link does not let another account in by adding the invited address
 * unverified, and accepting never verifies an address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { startTestService, type TestService } from '../testing/index.js';

type Person = Awaited<ReturnType<typeof signUp>>;
const callback = 'http://localhost:3000/handler/team-invitation';

describe.each([
  { backend: 'PGlite', databaseUrl: null, available: true },
  { backend: 'PostgreSQL', databaseUrl: postgresUrl, available: postgresUp },
])('team invitations on $backend', ({ databaseUrl, available }) => {
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
    if (!available) return;
    service = await startTestService({ databaseUrl, projectConfig: { client_team_creation_enabled: true } });
    alice = await signUp(service);
    team = ok(await call(service, 'POST', '/teams', { headers: as(alice), json: { display_name: 'Acme' } }), 201).id;
  });
  afterAll(() => service?.close());

  it.skipIf(!available)(
    'a leaked link does not let another account in by adding the invited address unverified, nor verify it',
    async () => {
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
    },
  );

  it.skipIf(!available)(
    'an unverified sign-up address is refused until it is verified, and stays as it was',
    async () => {
      const email = newEmail('grace');
      ok(await invite(email));
      const code = codeFromMail(await lastMailTo(service, email));
      const grace = await signUp(service, email);
      expectKnownError(await accept(grace, code), 'EMAIL_NOT_ASSOCIATED_WITH_USER', 400);
      expect((await channels(grace))[0]).toMatchObject({ value: email, is_verified: false });
      await verify(grace);
      expect(ok(await accept(grace, code))).toEqual({});
      expect(await members()).toContain(grace.user_id);
    },
  );
});
