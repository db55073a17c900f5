/**
 * The audit log: security events are recorded with who, where and
 * when, nothing secret is kept, admins read them with filters and cursor
 * paging, nobody else can, and no event can be changed.
 */
import { expect, it } from 'vitest';
import { createApiKeySet, createUser, revokeApiKeySet, updateProjectConfig } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  newEmail,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { auditEvents, auditTrail } from '../test-support/audit.js';
import { describeEachBackend, testServiceForSuite } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';

describeEachBackend('audit log', ({ databaseUrl }) => {
  const service = testServiceForSuite({ databaseUrl });

  const signIn = (email: string, password: string, userAgent = 'audit-test/1.0') =>
    call(service, 'POST', '/auth/password/sign-in', {
      headers: { ...authHeaders(service), 'user-agent': userAgent },
      json: { email, password },
    });

  it('records sign-up, failed and successful sign-ins with who, where and how', async () => {
    const user = await signUp(service);
    expectKnownError(await signIn(user.email, 'not-the-password-9'), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await signIn(user.email, user.password, 'Mozilla/5.0 audit')).status).toBe(200);

    expect(await auditTrail(service, user.user_id)).toEqual(['sign_up', 'sign_in.failed', 'sign_in.succeeded']);
    const [succeeded, failed, signedUp] = await auditEvents(service, { user_id: user.user_id });
    expect(signedUp!.data).toEqual({ method: 'password' });
    expect(failed!.data).toEqual({ method: 'password', reason: 'wrong_password' });
    expect(succeeded).toMatchObject({
      type: 'sign_in.succeeded',
      user_id: user.user_id,
      actor: { type: 'anonymous', id: null },
      ip_address: '127.0.0.1',
      user_agent: 'Mozilla/5.0 audit',
    });
    expect(Math.abs(succeeded!.occurred_at_millis - service.clock.now())).toBeLessThan(60_000);
  });

  it('keeps no password and no address typed at a failed sign-in', async () => {
    const typed = `${newEmail('nobody')}`;
    const secretLooking = 'hunter2-Secret-Typed';
    expectKnownError(await signIn(typed, secretLooking), 'EMAIL_PASSWORD_MISMATCH', 400);
    const [event] = await auditEvents(service, { type: 'sign_in.failed', limit: '1' });
    expect(event).toMatchObject({ user_id: null, data: { method: 'password', reason: 'unknown_account' } });
    const everything = JSON.stringify(await auditEvents(service, { limit: '1000' }));
    expect(everything).not.toContain(secretLooking);
    expect(everything).not.toContain(typed);
    expect(everything).not.toContain(goodPassword);
  });

  it('a change that rolls back leaves no event', async () => {
    const user = await signUp(service);
    const before = await auditEvents(service, { type: 'sign_up', limit: '1000' });
    const again = await call(service, 'POST', '/auth/password/sign-up', {
      headers: authHeaders(service),
      json: { email: user.email, password: goodPassword },
    });
    expectKnownError(again, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await auditEvents(service, { type: 'sign_up', limit: '1000' })).toHaveLength(before.length);
  });

  it('filters by user, type and time, and pages with a cursor bound to its filter', async () => {
    const user = await signUp(service);
    for (let attempt = 0; attempt < 4; attempt++) await signIn(user.email, `wrong-password-${attempt}`);
    const start = service.clock.now();
    service.clock.advance(10_000);
    expect((await signIn(user.email, user.password)).status).toBe(200);

    const failures = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.failed' });
    expect(failures).toHaveLength(4);
    const both = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.failed,sign_up' });
    expect(both.map((event) => event.type).sort()).toEqual([...Array(4).fill('sign_in.failed'), 'sign_up']);
    const later = await auditEvents(service, { user_id: user.user_id, since: String(start + 1) });
    expect(later.map((event) => event.type)).toEqual(['sign_in.succeeded']);
    const earlier = await auditEvents(service, { user_id: user.user_id, until: String(start + 1) });
    expect(earlier).toHaveLength(5);

    // Pages of two, newest first, then nothing more: every event once.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string> = { user_id: user.user_id, limit: '2' };
      if (cursor) query.cursor = cursor;
      const answer = await call(service, 'GET', `/audit-events?${new URLSearchParams(query)}`, {
        headers: authHeaders(service, 'admin'),
      });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.items.map((event: { id: string }) => event.id));
      cursor = answer.body.pagination.next_cursor;
      pages++;
      if (cursor) {
        // The same cursor on another filter is refused rather than skipping events.
        const other = await call(service, 'GET', `/audit-events?type=sign_up&cursor=${cursor}`, {
          headers: authHeaders(service, 'admin'),
        });
        expectKnownError(other, 'SCHEMA_ERROR', 400);
      }
    } while (cursor && pages < 10);
    expect(seen.length, JSON.stringify(seen)).toBe(6);
    expect(pages).toBe(3);
    const all = (await auditEvents(service, { user_id: user.user_id })).map((event) => event.id);
    expect(seen).toEqual(all);
    expect(all).toHaveLength(6);
    expect([...all].map(BigInt)).toEqual([...all].map(BigInt).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it('answers bad filters with SCHEMA_ERROR', async () => {
    for (const query of [
      'type=no_such_event',
      'user_id=not-a-uuid',
      'since=yesterday',
      'until=-5',
      'limit=0',
      'limit=100000',
      'cursor=***',
      `cursor=${Buffer.from('99999999999999999999999.abc').toString('base64url')}`,
      `type=${'sign_up,'.repeat(200)}`,
    ]) {
      const answer = await call(service, 'GET', `/audit-events?${query}`, { headers: authHeaders(service, 'admin') });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
    }
  });

  it('is read by admins only, and only of their own project', async () => {
    const user = await signUp(service);
    expectKnownError(
      await call(service, 'GET', '/audit-events', { headers: userHeaders(service, user) }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
    expectKnownError(
      await call(service, 'GET', '/audit-events', { headers: authHeaders(service, 'server') }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
    const other = await service.createOtherProject();
    const theirs = await call(service, 'GET', `/audit-events?user_id=${user.user_id}`, {
      headers: {
        ...authHeaders(service, 'admin'),
        'x-stack-project-id': other.projectId,
        'x-stack-publishable-client-key': other.keys.publishableClientKey,
        'x-stack-secret-server-key': other.keys.secretServerKey,
        'x-stack-super-secret-admin-key': other.keys.superSecretAdminKey,
      },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
  });

  it('cannot be rewritten, even from inside the database', async () => {
    await signUp(service);
    const db = dbOf(service.storage);
    await expect(db.updateTable('audit_events').set({ type: 'sign_in.succeeded' }).execute()).rejects.toThrow(
      /never changed/,
    );
    expect((await auditEvents(service, { type: 'sign_up', limit: '1' })).length).toBe(1);
  });

  it('records password, e-mail and account changes, naming who acted', async () => {
    const user = await signUp(service);
    const asUser = userHeaders(service, user);
    await call(service, 'POST', '/auth/password/update', {
      headers: asUser,
      json: { old_password: goodPassword, new_password: 'another-horse-2' },
    });
    const added = await call(service, 'POST', '/contact-channels', {
      headers: asUser,
      json: { user_id: 'me', type: 'email', value: newEmail('second'), used_for_auth: false },
    });
    expect(added.status).toBe(201);
    await call(service, 'DELETE', `/contact-channels/me/${added.body.id}`, { headers: asUser });

    // The server changes the password and a name, then deletes the user.
    const server = authHeaders(service, 'server');
    await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server,
      json: { password: 'third-horse-3', display_name: 'Ada' },
    });
    await call(service, 'DELETE', `/users/${user.user_id}`, { headers: server });

    expect(await auditTrail(service, user.user_id)).toEqual([
      'sign_up',
      'password.changed',
      'contact_channel.added',
      'contact_channel.removed',
      'password.changed',
      'user.updated',
      'user.deleted',
    ]);
    const events = (await auditEvents(service, { user_id: user.user_id })).reverse();
    expect(events[1]).toMatchObject({ actor: { type: 'user', id: user.user_id }, data: { by: 'user' } });
    expect(events[2]!.data).toEqual({ channel_id: added.body.id, used_for_auth: false, verified: false });
    const keySets = await call(service, 'GET', '/internal/api-keys', { headers: authHeaders(service, 'admin') });
    const keySetIds = keySets.body.items.map((set: { id: string }) => set.id);
    expect(events[4]).toMatchObject({ actor: { type: 'server' }, data: { by: 'server' } });
    expect(keySetIds).toContain(events[4]!.actor.id);
    expect(events[5]!.data).toEqual({ fields: ['display_name'] });
    expect(JSON.stringify(events)).not.toContain('third-horse-3');
    expect(JSON.stringify(events)).not.toContain('another-horse-2');
  });

  it('records key sets made and revoked (once) and config changes, never their secrets', async () => {
    const admin = authHeaders(service, 'admin');
    const made = await call(service, 'POST', '/internal/api-keys', {
      headers: admin,
      json: { description: 'ci', has_secret_server_key: true },
    });
    expect(made.status).toBe(200);
    for (let time = 0; time < 2; time++) {
      await call(service, 'PATCH', `/internal/api-keys/${made.body.id}`, { headers: admin, json: { revoked: true } });
    }
    const secret = 'provider-client-secret-value-42';
    const patched = await call(service, 'PATCH', '/projects/current', {
      headers: admin,
      json: {
        display_name: 'Audited',
        config: {
          oauth_providers: [
            { id: 'github', type: 'standard', enabled: true, client_id: 'gh-id', client_secret: secret },
          ],
        },
      },
    });
    expect(patched.body.display_name, patched.text).toBe('Audited');

    const keyEvents = await auditEvents(service, { type: 'api_key.created,api_key.revoked', limit: '1000' });
    const ours = keyEvents.filter((event) => event.data.key_set_id === made.body.id).reverse();
    expect(ours.map((event) => event.type)).toEqual(['api_key.created', 'api_key.revoked']);
    expect(ours[0]).toMatchObject({ user_id: null, actor: { type: 'admin' }, data: { kinds: ['secretServerKey'] } });
    const [config] = await auditEvents(service, { type: 'project.updated', limit: '1' });
    expect(config!.data).toEqual({ fields: ['config.oauth_providers', 'display_name'] });
    const everything = JSON.stringify(await auditEvents(service, { limit: '1000' }));
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(made.body.secret_server_key);
  });

  it('records sign-outs, sessions ended and opened by server code, resets and magic-link sign-ins', async () => {
    const user = await signUp(service);
    const second = await signIn(user.email, user.password);
    expect(
      (await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, second.body) })).status,
    ).toBe(200);
    const server = authHeaders(service, 'server');
    const opened = await call(service, 'POST', '/auth/sessions', {
      headers: server,
      json: { user_id: user.user_id, is_impersonation: true },
    });
    expect(opened.body.refresh_token, opened.text).toEqual(expect.any(String));
    const sessions = await call(service, 'GET', `/auth/sessions?user_id=${user.user_id}`, { headers: server });
    const impersonation = sessions.body.items.find(
      (session: { is_impersonation: boolean }) => session.is_impersonation,
    );
    await call(service, 'DELETE', `/auth/sessions/${impersonation.id}`, { headers: server });

    const reset = 'http://localhost:3000/handler/password-reset';
    const sent = await call(service, 'POST', '/auth/password/send-reset-code', {
      headers: authHeaders(service),
      json: { email: user.email, callback_url: reset },
    });
    expect(sent.status).toBe(200);
    const code = codeFromMail(await lastMailTo(service, user.email));
    const done = await call(service, 'POST', '/auth/password/reset', {
      headers: authHeaders(service),
      json: { code, password: 'reset-horse-4' },
    });
    expect(done.body, done.text).toEqual({ success: true });

    await service.setProjectConfig({ magic_link_enabled: true });
    const link = 'http://localhost:3000/handler/magic-link-callback';
    await call(service, 'POST', '/auth/otp/send-sign-in-code', {
      headers: authHeaders(service),
      json: { email: user.email, callback_url: link },
    });
    const otp = await call(service, 'POST', '/auth/otp/sign-in', {
      headers: authHeaders(service),
      json: { code: codeFromMail(await lastMailTo(service, user.email)) },
    });
    expect(otp.body.user_id, otp.text).toBe(user.user_id);

    expect(await auditTrail(service, user.user_id)).toEqual([
      'sign_up',
      'sign_in.succeeded',
      'session.revoked',
      'impersonation.started',
      'session.revoked',
      // The reset proved the address the account had never proven.
      'contact_channel.verified',
      'password.reset',
      'sign_in.succeeded',
    ]);
    const events = (await auditEvents(service, { user_id: user.user_id })).reverse();
    expect(events[2]).toMatchObject({ actor: { type: 'user', id: user.user_id }, data: { current: true } });
    expect(events[3]).toMatchObject({ actor: { type: 'server' }, data: { session_id: impersonation.id } });
    expect(events[4]).toMatchObject({
      actor: { type: 'server' },
      data: { session_id: impersonation.id, current: false },
    });
    expect(events[7]!.data).toEqual({ method: 'otp' });
    const everything = JSON.stringify(events);
    expect(everything).not.toContain(code);
    expect(everything).not.toContain(second.body.refresh_token);
  });

  it('records a wrong e-mailed sign-in code as a failed sign-in (wrong_code)', async () => {
    await service.setProjectConfig({ magic_link_enabled: true });
    const user = await signUp(service);
    // Codes sign in only by a verified address.
    await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: authHeaders(service, 'server'),
      json: { primary_email_verified: true },
    });
    const sent = await call(service, 'POST', '/auth/otp/send-sign-in-code', {
      headers: authHeaders(service),
      json: { email: user.email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
    });
    expect(sent.status).toBe(200);
    const code = codeFromMail(await lastMailTo(service, user.email));
    const wrong = (code[0] === '0' ? '1' : '0') + code.slice(1);
    const answer = await call(service, 'POST', '/auth/otp/sign-in', {
      headers: authHeaders(service),
      json: { code: wrong },
    });
    expectKnownError(answer, 'VERIFICATION_CODE_NOT_FOUND', 404);
    const [failed] = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.failed' });
    expect(failed).toMatchObject({ actor: { type: 'anonymous' }, data: { method: 'otp', reason: 'wrong_code' } });
    expect(JSON.stringify(failed)).not.toContain(code.slice(6));
  });

  it('records contact channel changes by the names of the fields changed, and verifications', async () => {
    const user = await signUp(service);
    const headers = userHeaders(service, user);
    const value = newEmail('channel');
    const added = await call(service, 'POST', '/contact-channels', {
      headers,
      json: { user_id: 'me', value, type: 'email', used_for_auth: false },
    });
    const path = `/contact-channels/me/${added.body.id}`;
    await call(service, 'PATCH', path, { headers, json: { used_for_auth: true } });
    const renamed = newEmail('renamed');
    await call(service, 'PATCH', path, { headers, json: { value: renamed } });
    // Asking for what already is changes nothing, and records nothing.
    await call(service, 'PATCH', path, { headers, json: { used_for_auth: true } });
    const sent = await call(service, 'POST', `${path}/send-verification-code`, {
      headers,
      json: { callback_url: 'http://localhost:3000/handler/email-verification' },
    });
    expect(sent.status).toBe(200);
    const code = codeFromMail(await lastMailTo(service, renamed));
    await call(service, 'POST', '/contact-channels/verify', { headers: authHeaders(service), json: { code } });
    await call(service, 'PATCH', path, { headers, json: { is_primary: true } });

    const events = (await auditEvents(service, { user_id: user.user_id })).reverse();
    const channelEvents = events.filter((event) => event.type.startsWith('contact_channel.'));
    expect(channelEvents.map((event) => [event.type, event.data])).toEqual([
      ['contact_channel.added', { channel_id: added.body.id, used_for_auth: false, verified: false }],
      ['contact_channel.updated', { channel_id: added.body.id, fields: ['used_for_auth'] }],
      ['contact_channel.updated', { channel_id: added.body.id, fields: ['value'] }],
      ['contact_channel.verified', { channel_id: added.body.id }],
      ['contact_channel.updated', { channel_id: added.body.id, fields: ['is_primary'] }],
    ]);
    expect(channelEvents[1]!.actor).toEqual({ type: 'user', id: user.user_id });
    const everything = JSON.stringify(events);
    expect(everything).not.toContain(value);
    expect(everything).not.toContain(renamed);
  });

  it('records what an operator does with the database itself (the CLI), as the operator', async () => {
    const keys = await createApiKeySet(service.storage, service.projectId, {
      description: 'cli',
      hasPublishableClientKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(await revokeApiKeySet(service.storage, service.projectId, keys.id)).toBe(true);
    expect(await revokeApiKeySet(service.storage, service.projectId, keys.id)).toBe(false);
    await updateProjectConfig(service.storage, service.projectId, { client_team_creation_enabled: true });
    const user = await createUser(service.storage, service.projectId, { primary_email: newEmail('cli') });

    const events = await auditEvents(service, { limit: '4' });
    expect(events.map((event) => [event.type, event.actor.type])).toEqual([
      ['user.created', 'operator'],
      ['project.updated', 'operator'],
      ['api_key.revoked', 'operator'],
      ['api_key.created', 'operator'],
    ]);
    expect(events[0]!.user_id).toBe(user.id);
    expect(events[1]!.data).toEqual({ fields: ['config.client_team_creation_enabled'] });
    expect(events[2]!.data).toEqual({ key_set_id: keys.id, kinds: ['secretServerKey'] });
    expect(JSON.stringify(events)).not.toContain(keys.secretServerKey);
  });

  /** The events of `types` whose data names `id` under `field`, oldest first. */
  const eventsAbout = async (types: string, field: string, id: string) =>
    (await auditEvents(service, { type: types, limit: '1000' })).filter((event) => event.data[field] === id).reverse();
  const teamEvents = 'team.created,team.updated,team.deleted,team.member_added,team.member_removed';

  it('records teams created, changed and deleted, which went unrecorded', async () => {
    const alice = await signUp(service);
    const server = authHeaders(service, 'server');
    const team = await call(service, 'POST', '/teams', {
      headers: server,
      json: { display_name: 'Audited team', creator_user_id: alice.user_id },
    });
    expect(team.status, team.text).toBe(201);
    const secretMetadata = { plan: 'secret-plan-value' };
    await call(service, 'PATCH', `/teams/${team.body.id}`, {
      headers: server,
      json: { display_name: 'Renamed', server_metadata: secretMetadata },
    });
    await call(service, 'PATCH', `/teams/${team.body.id}`, { headers: server, json: {} });
    expect((await call(service, 'DELETE', `/teams/${team.body.id}`, { headers: server })).status).toBe(200);

    const events = (await eventsAbout(teamEvents, 'team_id', team.body.id)).filter((e) => !e.type.includes('member'));
    expect(events.map((event) => [event.type, event.user_id, event.actor.type])).toEqual([
      ['team.created', alice.user_id, 'server'],
      ['team.updated', null, 'server'],
      ['team.deleted', null, 'server'],
    ]);
    expect(events[1]!.data).toEqual({ team_id: team.body.id, fields: ['display_name', 'server_metadata'] });
    expect(JSON.stringify(events)).not.toContain('secret-plan-value');
  });

  it('records members added and removed, which went unrecorded', async () => {
    const [alice, bob] = [await signUp(service), await signUp(service)];
    const server = authHeaders(service, 'server');
    const team = await call(service, 'POST', '/teams', {
      headers: server,
      json: { display_name: 'Members', creator_user_id: alice.user_id },
    });
    const membership = `/team-memberships/${team.body.id}/${bob.user_id}`;
    expect((await call(service, 'POST', membership, { headers: server })).status).toBe(201);
    expectKnownError(
      await call(service, 'POST', membership, { headers: server }),
      'TEAM_MEMBERSHIP_ALREADY_EXISTS',
      409,
    );
    // Bob leaves by himself; leaving twice finds no membership the second time.
    const leave = `/team-memberships/${team.body.id}/me`;
    expect((await call(service, 'DELETE', leave, { headers: userHeaders(service, bob) })).status).toBe(200);
    expectKnownError(
      await call(service, 'DELETE', leave, { headers: userHeaders(service, bob) }),
      'TEAM_MEMBERSHIP_NOT_FOUND',
      404,
    );

    const events = (await eventsAbout(teamEvents, 'team_id', team.body.id)).filter((e) => e.type.includes('member'));
    expect(events.map((event) => [event.type, event.user_id, event.actor])).toEqual([
      ['team.member_added', alice.user_id, { type: 'server', id: expect.any(String) }],
      ['team.member_added', bob.user_id, { type: 'server', id: expect.any(String) }],
      ['team.member_removed', bob.user_id, { type: 'user', id: bob.user_id }],
    ]);
    expect(events[2]!.data).toEqual({ team_id: team.body.id });
  });

  it('records team permissions granted and revoked, which went unrecorded', async () => {
    const alice = await signUp(service);
    const [admin, server] = [authHeaders(service, 'admin'), authHeaders(service, 'server')];
    const permission = `audit_grant_${Date.now()}`;
    await call(service, 'POST', '/team-permission-definitions', { headers: admin, json: { id: permission } });
    const team = await call(service, 'POST', '/teams', {
      headers: server,
      json: { display_name: 'Grants', creator_user_id: alice.user_id },
    });
    const grant = `/team-permissions/${team.body.id}/${alice.user_id}/${permission}`;
    for (let time = 0; time < 2; time++)
      expect((await call(service, 'POST', grant, { headers: server })).status).toBe(201);
    expect((await call(service, 'DELETE', grant, { headers: server })).status).toBe(200);
    expectKnownError(await call(service, 'DELETE', grant, { headers: server }), 'TEAM_PERMISSION_NOT_FOUND', 401);

    const events = await eventsAbout('team_permission.granted,team_permission.revoked', 'permission_id', permission);
    expect(events.map((event) => [event.type, event.user_id, event.actor.type])).toEqual([
      ['team_permission.granted', alice.user_id, 'server'],
      ['team_permission.revoked', alice.user_id, 'server'],
    ]);
    expect(events[0]!.data).toEqual({ team_id: team.body.id, permission_id: permission });
  });

  it('records permission definitions created, changed and deleted, which went unrecorded', async () => {
    const admin = authHeaders(service, 'admin');
    const [first, renamed] = [`audit_def_${Date.now()}`, `audit_renamed_${Date.now()}`];
    const path = '/team-permission-definitions';
    expect((await call(service, 'POST', path, { headers: admin, json: { id: first } })).status).toBe(201);
    const changed = await call(service, 'PATCH', `${path}/${first}`, {
      headers: admin,
      json: { id: renamed, description: 'Reads the audit log' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await call(service, 'DELETE', `${path}/${renamed}`, { headers: admin })).status).toBe(200);

    const types = 'permission_definition.created,permission_definition.updated,permission_definition.deleted';
    const events = [
      ...(await eventsAbout(types, 'permission_id', first)),
      ...(await eventsAbout(types, 'permission_id', renamed)),
    ];
    expect(events.map((event) => [event.type, event.actor.type, event.data])).toEqual([
      ['permission_definition.created', 'admin', { permission_id: first }],
      [
        'permission_definition.updated',
        'admin',
        { permission_id: renamed, previous_id: first, fields: ['id', 'description'] },
      ],
      ['permission_definition.deleted', 'admin', { permission_id: renamed }],
    ]);
  });
});
