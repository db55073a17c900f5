/**
 * The audit log records team invitations (sent, accepted, revoked) and
 * changes of e-mail templates (created, updated, reset), on PGlite and
 * PostgreSQL, with who acted and nothing of the mail itself.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Answer, authHeaders, call, newEmail, signUp, userHeaders } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';

const callback = 'http://localhost:3000/handler/team-invitation';

describeEachBackend('audit of invitations and templates', ({ databaseUrl }) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl, projectConfig: { client_team_creation_enabled: true } });
  });
  afterAll(() => service?.close());

  const ok = (answer: Answer, status = 200) => {
    expect(answer.status, answer.text).toBe(status);
    return answer.body;
  };

  it('records an invitation sent, revoked and accepted, with the team and who acted', async () => {
    const alice = await signUp(service);
    const as = (person: typeof alice) => userHeaders(service, person);
    const team = ok(await call(service, 'POST', '/teams', { headers: as(alice), json: { display_name: 'Acme' } }), 201);
    const invite = async (email: string) =>
      ok(
        await call(service, 'POST', '/team-invitations/send-code', {
          headers: as(alice),
          json: { email, team_id: team.id, callback_url: callback },
        }),
      ).id as string;

    const revokedId = await invite(newEmail('revoked'));
    ok(await call(service, 'DELETE', `/team-invitations/${revokedId}?team_id=${team.id}`, { headers: as(alice) }));
    const email = newEmail('bob');
    const acceptedId = await invite(email);
    const code = codeFromMail(await lastMailTo(service, email));
    const bob = await signUp(service, email);
    ok(
      await call(service, 'PATCH', `/users/${bob.user_id}`, {
        headers: authHeaders(service, 'server'),
        json: { primary_email_verified: true },
      }),
    );
    ok(await call(service, 'POST', '/team-invitations/accept', { headers: as(bob), json: { code } }));

    const events = (await auditEvents(service, { limit: '100' }))
      .filter((event) => event.type.startsWith('team_invitation.'))
      .reverse();
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['team_invitation.sent', { team_id: team.id, invitation_id: revokedId }],
      ['team_invitation.revoked', { team_id: team.id, invitation_id: revokedId }],
      ['team_invitation.sent', { team_id: team.id, invitation_id: acceptedId }],
      ['team_invitation.accepted', { team_id: team.id, invitation_id: acceptedId }],
    ]);
    expect(events.map((event) => event.actor)).toEqual([
      { type: 'user', id: alice.user_id },
      { type: 'user', id: alice.user_id },
      { type: 'user', id: alice.user_id },
      { type: 'user', id: bob.user_id },
    ]);
    expect(events[3]!.user_id).toBe(bob.user_id);
    expect(JSON.stringify(events)).not.toContain(email);
    expect(JSON.stringify(events)).not.toContain(code);
  });

  it('records an e-mail template created, updated and reset, naming the type', async () => {
    const admin = authHeaders(service, 'admin');
    const edit = (json: unknown) => call(service, 'PATCH', '/email-templates/password_reset', { headers: admin, json });
    ok(await edit({ subject: 'Reset for {{ projectDisplayName }}' }));
    ok(await edit({ subject: 'New password for {{ projectDisplayName }}' }));
    ok(await edit({})); // nothing to change: nothing recorded
    ok(await call(service, 'DELETE', '/email-templates/password_reset', { headers: admin }));
    ok(await call(service, 'DELETE', '/email-templates/password_reset', { headers: admin })); // already the default

    const events = (await auditEvents(service, { limit: '100' }))
      .filter((event) => event.type.startsWith('email_template.'))
      .reverse();
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['email_template.created', { template_type: 'password_reset', fields: ['subject'] }],
      ['email_template.updated', { template_type: 'password_reset', fields: ['subject'] }],
      ['email_template.reset', { template_type: 'password_reset' }],
    ]);
    expect(events.every((event) => event.actor.type === 'admin' && event.user_id === null)).toBe(true);
  });
});
