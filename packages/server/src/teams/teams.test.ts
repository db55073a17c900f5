/**
 * Teams, memberships, member profiles and the selected team, over HTTP
 * (wire-protocol §14.3): what each access type may do, what a member without
 * a permission and a stranger are refused, what deletions take with them.
 */
import { internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import {
  type AccessType,
  type Answer,
  authHeaders,
  call,
  expectKnownError,
  expectStatusRefusal,
  newEmail,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';

let service: TestService;
type Person = Awaited<ReturnType<typeof signUp>>;

const as = (person: Person, accessType: AccessType = 'client') => userHeaders(service, person, accessType);
const server = () => authHeaders(service, 'server');
const ok = (answer: Answer, status = 200) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('x-stack-known-error')).toBeNull();
  return answer.body;
};

async function createTeam(person: Person, name = 'Acme') {
  return ok(
    await call(service, 'POST', '/teams', { headers: as(person), json: { display_name: name, creator_user_id: 'me' } }),
    201,
  );
}
const held = async (teamId: string, userId: string) =>
  ok(
    await call(service, 'GET', `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, {
      headers: server(),
    }),
  ).items.map((item: { id: string }) => item.id);

beforeAll(async () => {
  service = await startTestService({ projectConfig: { client_team_creation_enabled: true } });
});
afterAll(() => service?.close());

describe('a team made by a signed-in user', () => {
  let alice: Person;
  let team: { id: string };

  beforeAll(async () => {
    alice = await signUp(service);
    team = await createTeam(alice, "Alice's Team");
  });

  it('is answered in the client view and listed among her teams', async () => {
    expect(team).toEqual({
      id: expect.any(String),
      display_name: "Alice's Team",
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
    });
    const mine = ok(await call(service, 'GET', '/teams?user_id=me', { headers: as(alice) }));
    expect(mine).toEqual({ items: [team], is_paginated: false });
    expect(ok(await call(service, 'GET', `/teams/${team.id}`, { headers: as(alice) }))).toEqual(team);
  });

  it('makes her a member with the creator permissions, admin and all it contains', async () => {
    expect(await held(team.id, alice.user_id)).toEqual(['admin']);
    const all = ok(
      await call(service, 'GET', `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, {
        headers: as(alice),
      }),
    );
    expect(all.items.map((item: { id: string }) => item.id)).toEqual([
      '$delete_team',
      '$invite_members',
      '$read_members',
      '$remove_members',
      '$update_team',
      'admin',
    ]);
  });

  it('is shown to server code with its creation time and server metadata', async () => {
    const seen = ok(await call(service, 'GET', `/teams/${team.id}`, { headers: server() }));
    expect(seen).toMatchObject({ id: team.id, server_metadata: null, created_at_millis: expect.any(Number) });
  });

  it('has null metadata until set; {} set is kept, and null sets it back', async () => {
    const fresh = await createTeam(alice, 'Fresh');
    // `toMatchObject` takes null for `{}`: compare the metadata fields whole.
    const metadataOf = (body: Record<string, unknown>) => ({
      client: body.client_metadata,
      readOnly: body.client_read_only_metadata,
      server: body.server_metadata,
    });
    const seen = async () => metadataOf(ok(await call(service, 'GET', `/teams/${fresh.id}`, { headers: server() })));
    expect(metadataOf(fresh)).toEqual({ client: null, readOnly: null, server: undefined });
    expect(await seen()).toEqual({ client: null, readOnly: null, server: null });
    const set = async (json: object) =>
      metadataOf(ok(await call(service, 'PATCH', `/teams/${fresh.id}`, { headers: server(), json })));
    expect(await set({ client_metadata: {}, client_read_only_metadata: {}, server_metadata: {} })).toEqual({
      client: {},
      readOnly: {},
      server: {},
    });
    expect(await seen()).toEqual({ client: {}, readOnly: {}, server: {} });
    expect(await set({ client_metadata: null, client_read_only_metadata: null, server_metadata: null })).toEqual({
      client: null,
      readOnly: null,
      server: null,
    });
    expect(await seen()).toEqual({ client: null, readOnly: null, server: null });
  });

  it('is renamed by her, and its client metadata changes', async () => {
    const renamed = ok(
      await call(service, 'PATCH', `/teams/${team.id}`, {
        headers: as(alice),
        json: { display_name: 'Renamed', client_metadata: { plan: 'pro' } },
      }),
    );
    expect(renamed).toMatchObject({ display_name: 'Renamed', client_metadata: { plan: 'pro' } });
  });

  it('refuses a client the fields only servers write, and a picture that is a link', async () => {
    const before = await snapshot(service);
    for (const json of [
      { server_metadata: { x: 1 } },
      { client_read_only_metadata: { x: 1 } },
      { profile_image_url: 'https://evil.example/pixel.png' },
      { profile_image_url: 'data:image/svg+xml;base64,PHN2Zz4=' },
      { display_name: 'x'.repeat(257) },
      { display_name: 42 },
      { unknown: true },
    ]) {
      expectKnownError(
        await call(service, 'PATCH', `/teams/${team.id}`, { headers: as(alice), json }),
        'SCHEMA_ERROR',
        400,
      );
    }
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    expect(await snapshot(service)).toEqual(before);
    ok(await call(service, 'PATCH', `/teams/${team.id}`, { headers: as(alice), json: { profile_image_url: image } }));
  });

  it('may be given an empty name, as on the original backend', async () => {
    const unnamed = await createTeam(alice, '');
    expect(unnamed.display_name).toBe('');
    const renamed = ok(
      await call(service, 'PATCH', `/teams/${unnamed.id}`, { headers: as(alice), json: { display_name: '  ' } }),
    );
    expect(renamed).toMatchObject({ id: unnamed.id, display_name: '' });
    ok(await call(service, 'DELETE', `/teams/${unnamed.id}`, { headers: as(alice), json: { display_name: 'x' } }));
  });
});

describe('creating teams', () => {
  it('needs client team creation on; server code may always', async () => {
    const bob = await signUp(service);
    await service.setProjectConfig({ client_team_creation_enabled: false });
    try {
      const before = await snapshot(service);
      const answer = await call(service, 'POST', '/teams', { headers: as(bob), json: { display_name: 'No' } });
      expectStatusRefusal(answer, 403, 'Client team creation is disabled for this project');
      expect(await snapshot(service)).toEqual(before);
      const made = ok(
        await call(service, 'POST', '/teams', {
          headers: server(),
          json: { display_name: 'By server', creator_user_id: bob.user_id, server_metadata: { s: 1 } },
        }),
        201,
      );
      expect(made).toMatchObject({ display_name: 'By server', server_metadata: { s: 1 } });
      expect(await held(made.id, bob.user_id)).toEqual(['admin']);
    } finally {
      await service.setProjectConfig({ client_team_creation_enabled: true });
    }
  });

  it('lets a client create only its own team', async () => {
    const [bob, carol] = [await signUp(service), await signUp(service)];
    const answer = await call(service, 'POST', '/teams', {
      headers: as(bob),
      json: { display_name: 'For Carol', creator_user_id: carol.user_id },
    });
    expectStatusRefusal(
      answer,
      403,
      "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
    );
  });

  it('gives every new user a team of their own when the project asks for it', async () => {
    await service.setProjectConfig({ create_team_on_sign_up: true });
    try {
      const dave = await signUp(service);
      const user = ok(await call(service, 'GET', '/users/me', { headers: as(dave) }));
      expect(user.selected_team).toMatchObject({ display_name: `${user.primary_email}'s Team` });
      expect(await held(user.selected_team_id, dave.user_id)).toEqual(['admin']);
      const created = ok(
        await call(service, 'POST', '/users', {
          headers: server(),
          json: { display_name: 'Erin', primary_email: newEmail('erin') },
        }),
        201,
      );
      expect(created.selected_team).toMatchObject({ display_name: "Erin's Team", server_metadata: null });
      const nameless = ok(await call(service, 'POST', '/users', { headers: server(), json: {} }), 201);
      expect(nameless.selected_team).toMatchObject({ display_name: 'Personal Team' });
    } finally {
      await service.setProjectConfig({ create_team_on_sign_up: false });
    }
    const frank = await signUp(service);
    expect(ok(await call(service, 'GET', '/teams?user_id=me', { headers: as(frank) })).items).toEqual([]);
  });
});

describe("another team's data", () => {
  let alice: Person;
  let outsider: Person;
  let memberElsewhere: Person;
  let teamB: string;
  let invitationId: string;

  beforeAll(async () => {
    [alice, outsider, memberElsewhere] = [await signUp(service), await signUp(service), await signUp(service)];
    teamB = (await createTeam(alice, 'B')).id;
    await createTeam(memberElsewhere, 'A');
    const sent = await call(service, 'POST', '/team-invitations/send-code', {
      headers: as(alice),
      json: {
        email: 'someone@example.com',
        team_id: teamB,
        callback_url: 'http://localhost:3000/handler/team-invitation',
      },
    });
    invitationId = ok(sent).id;
  });

  it('is out of reach of a member of another team and of a user in no team, and nothing changes', async () => {
    const before = await snapshot(service);
    for (const person of [memberElsewhere, outsider]) {
      // Membership is asked first, as on the original backend: TEAM_MEMBERSHIP_NOT_FOUND, whatever the action.
      const attempts: [string, string, unknown, string][] = [
        ['GET', `/teams/${teamB}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['PATCH', `/teams/${teamB}`, { display_name: 'Mine now' }, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['DELETE', `/teams/${teamB}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['POST', `/team-memberships/${teamB}/me`, {}, 'INSUFFICIENT_ACCESS_TYPE'],
        ['DELETE', `/team-memberships/${teamB}/${alice.user_id}`, {}, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['DELETE', `/team-memberships/${teamB}/me`, {}, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['GET', `/team-member-profiles?team_id=${teamB}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['GET', `/team-member-profiles?team_id=${teamB}&user_id=me`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['GET', `/team-member-profiles/${teamB}/${alice.user_id}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['GET', `/team-member-profiles/${teamB}/me`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['PATCH', `/team-member-profiles/${teamB}/me`, { display_name: 'x' }, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['POST', `/team-permissions/${teamB}/me/admin`, {}, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['DELETE', `/team-permissions/${teamB}/${alice.user_id}/admin`, {}, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        [
          'POST',
          '/team-invitations/send-code',
          { email: 'me@example.com', team_id: teamB, callback_url: 'http://localhost:3000/x' },
          'TEAM_MEMBERSHIP_NOT_FOUND',
        ],
        ['GET', `/team-invitations?team_id=${teamB}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['DELETE', `/team-invitations/${invitationId}?team_id=${teamB}`, undefined, 'TEAM_MEMBERSHIP_NOT_FOUND'],
        ['PATCH', '/users/me', { selected_team_id: teamB }, 'TEAM_MEMBERSHIP_NOT_FOUND'],
      ];
      for (const [method, path, json, code] of attempts) {
        const answer = await call(service, method, path, { headers: as(person), json });
        expect(`${method} ${path}: ${answer.headers.get('x-stack-known-error')}`).toBe(`${method} ${path}: ${code}`);
        if (code === 'TEAM_MEMBERSHIP_NOT_FOUND' && path.startsWith('/team')) {
          expect(answer.body.details).toEqual({ team_id: teamB, user_id: person.user_id });
        }
      }
      // The original backend's plain refusals: another member's profile, and member profiles without a team.
      expectStatusRefusal(
        await call(service, 'PATCH', `/team-member-profiles/${teamB}/${alice.user_id}`, {
          headers: as(person),
          json: { display_name: 'x' },
        }),
        403,
        "Cannot update another user's profile",
      );
      expectStatusRefusal(
        await call(service, 'GET', '/team-member-profiles?user_id=me', { headers: as(person) }),
        400,
        'team_id is required for access type client',
      );
      // Lists of someone else's teams or permissions: the original backend's plain 403.
      const lists: [string, string][] = [
        [`/teams?user_id=${alice.user_id}`, 'teams'],
        ['/teams', 'teams'],
        [`/team-permissions?team_id=${teamB}&user_id=${alice.user_id}`, 'permissions'],
      ];
      for (const [path, what] of lists) {
        expectStatusRefusal(
          await call(service, 'GET', path, { headers: as(person) }),
          403,
          `Client can only list ${what} for their own user. user_id must be either "me" or the ID of the current user`,
        );
      }
      const nothing = ok(
        await call(service, 'GET', `/team-permissions?team_id=${teamB}&user_id=me`, { headers: as(person) }),
      );
      expect(nothing.items).toEqual([]);
    }
    expect(await snapshot(service)).toEqual(before);
  });

  it('asks a signed-out client to sign in (USER_AUTHENTICATION_REQUIRED) before looking the team up', async () => {
    const before = await snapshot(service);
    const signedOut = authHeaders(service);
    for (const id of [teamB, '00000000-0000-4000-8000-000000000000']) {
      for (const [method, json] of [['GET'], ['PATCH', { display_name: 'Mine now' }], ['DELETE']] as const) {
        const answer = await call(service, method, `/teams/${id}`, { headers: signedOut, json });
        expectKnownError(answer, 'USER_AUTHENTICATION_REQUIRED', 401);
      }
    }
    const created = await call(service, 'POST', '/teams', {
      headers: signedOut,
      json: { display_name: 'New Team', creator_user_id: alice.user_id },
    });
    expectKnownError(created, 'USER_AUTHENTICATION_REQUIRED', 401);
    expect(await snapshot(service)).toEqual(before);
  });

  it('answers a team that does not exist, or an id that is not one, TEAM_MEMBERSHIP_NOT_FOUND to a client and TEAM_NOT_FOUND to server code', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' OR '1'='1"]) {
      const path = `/teams/${encodeURIComponent(id)}`;
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const answer = await call(service, method, path, {
          headers: as(alice),
          json: method === 'GET' ? undefined : {},
        });
        expectKnownError(answer, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
      }
      expectKnownError(await call(service, 'GET', path, { headers: server() }), 'TEAM_NOT_FOUND', 404);
    }
  });
});

describe('members', () => {
  let alice: Person;
  let bob: Person;
  let team: string;

  beforeAll(async () => {
    [alice, bob] = [await signUp(service), await signUp(service)];
    team = (await createTeam(alice)).id;
  });

  it('are added by server code with the member permissions, once', async () => {
    const added = await call(service, 'POST', `/team-memberships/${team}/${bob.user_id}`, {
      headers: server(),
      json: {},
    });
    expect(ok(added, 201)).toEqual({ team_id: team, user_id: bob.user_id });
    expect(await held(team, bob.user_id)).toEqual(['member']);
    const again = await call(service, 'POST', `/team-memberships/${team}/${bob.user_id}`, {
      headers: server(),
      json: {},
    });
    expectKnownError(again, 'TEAM_MEMBERSHIP_ALREADY_EXISTS', 409);
    const nobody = await call(service, 'POST', `/team-memberships/${team}/00000000-0000-4000-8000-000000000000`, {
      headers: server(),
      json: {},
    });
    expectKnownError(nobody, 'USER_NOT_FOUND', 404);
  });

  it('see each other with their team profiles, e-mail and roles; the server view carries the user', async () => {
    const seen = ok(await call(service, 'GET', `/team-member-profiles?team_id=${team}`, { headers: as(bob) }));
    expect(seen.items.map((profile: { user_id: string }) => profile.user_id)).toEqual([alice.user_id, bob.user_id]);
    expect(seen.items[0]).toEqual({
      team_id: team,
      user_id: alice.user_id,
      display_name: null,
      profile_image_url: null,
      primary_email: alice.email,
      permission_ids: ['admin'],
    });
    const full = ok(await call(service, 'GET', `/team-member-profiles?team_id=${team}`, { headers: server() }));
    expect(full.items[1]).toMatchObject({ primary_email: bob.email, permission_ids: ['member'] });
    expect(full.items[1].user).toMatchObject({ id: bob.user_id, primary_email: bob.email, server_metadata: null });
  });

  it('change their own team profile, which overrides their name in that team only', async () => {
    ok(
      await call(service, 'PATCH', `/team-member-profiles/${team}/${bob.user_id}`, {
        headers: as(bob),
        json: { display_name: 'Bob (Acme)' },
      }),
    );
    ok(await call(service, 'PATCH', '/users/me', { headers: as(bob), json: { display_name: 'Bob' } }));
    const profile = ok(await call(service, 'GET', `/team-member-profiles/${team}/me`, { headers: as(bob) }));
    expect(profile.display_name).toBe('Bob (Acme)');
    const other = await call(service, 'PATCH', `/team-member-profiles/${team}/${alice.user_id}`, {
      headers: as(bob),
      json: { display_name: 'Not Alice' },
    });
    expectStatusRefusal(other, 403, "Cannot update another user's profile");
  });

  it('without a permission cannot rename, delete or remove; the admin can remove them', async () => {
    const before = await snapshot(service);
    for (const [method, path, json] of [
      ['PATCH', `/teams/${team}`, { display_name: 'Bob rules' }],
      ['DELETE', `/teams/${team}`, undefined],
      ['DELETE', `/team-memberships/${team}/${alice.user_id}`, {}],
    ] as const) {
      const answer = await call(service, method, path, { headers: as(bob), json });
      expectKnownError(answer, 'TEAM_PERMISSION_REQUIRED', 401);
      expect(answer.body.details).toMatchObject({ team_id: team, user_id: bob.user_id });
    }
    expect(await snapshot(service)).toEqual(before);
    ok(await call(service, 'DELETE', `/team-memberships/${team}/${bob.user_id}`, { headers: as(alice), json: {} }));
    expect(await held(team, bob.user_id)).toEqual([]);
    expect(ok(await call(service, 'GET', '/teams?user_id=me', { headers: as(bob) })).items).toEqual([]);
  });

  it('leave by themselves, and then their selected team is none', async () => {
    ok(await call(service, 'POST', `/team-memberships/${team}/${bob.user_id}`, { headers: server(), json: {} }), 201);
    const selected = ok(
      await call(service, 'PATCH', '/users/me', { headers: as(bob), json: { selected_team_id: team } }),
    );
    expect(selected.selected_team).toMatchObject({ id: team, display_name: 'Acme' });
    expect(selected.selected_team).not.toHaveProperty('server_metadata');
    const serverView = ok(await call(service, 'GET', `/users/${bob.user_id}`, { headers: server() }));
    expect(serverView.selected_team).toMatchObject({ id: team, server_metadata: null });

    ok(await call(service, 'DELETE', `/team-memberships/${team}/me`, { headers: as(bob), json: {} }));
    const after = ok(await call(service, 'GET', '/users/me', { headers: as(bob) }));
    expect(after).toMatchObject({ selected_team: null, selected_team_id: null });
  });
});

describe("members' e-mail and roles (extensions)", () => {
  let admin: Person;
  let member: Person;
  let team: string;
  const grant = (by: Person, user: string, permission: string, method: 'POST' | 'DELETE' = 'POST') =>
    call(service, method, `/team-permissions/${team}/${user}/${permission}`, { headers: as(by), json: {} });
  const rename = (by: Person) =>
    call(service, 'PATCH', `/teams/${team}`, { headers: as(by), json: { display_name: `${by.email}'s` } });

  beforeAll(async () => {
    [admin, member] = [await signUp(service), await signUp(service)];
    team = (await createTeam(admin)).id;
    ok(
      await call(service, 'POST', `/team-memberships/${team}/${member.user_id}`, { headers: server(), json: {} }),
      201,
    );
  });

  it('are not shown to a member without $read_members, not even in their own profile', async () => {
    ok(await call(service, 'DELETE', `/team-permissions/${team}/${member.user_id}/member`, { headers: server() }));
    const own = ok(await call(service, 'GET', `/team-member-profiles/${team}/me`, { headers: as(member) }));
    expect(own).toEqual({ team_id: team, user_id: member.user_id, display_name: null, profile_image_url: null });
    const listed = ok(
      await call(service, 'GET', `/team-member-profiles?team_id=${team}&user_id=me`, { headers: as(member) }),
    );
    expect(listed.items[0]).not.toHaveProperty('primary_email');
    expect(listed.items[0]).not.toHaveProperty('permission_ids');
    const others = await call(service, 'GET', `/team-member-profiles?team_id=${team}`, { headers: as(member) });
    expectKnownError(others, 'TEAM_PERMISSION_REQUIRED', 401);
    // With $read_members back, they see everyone's, their own included.
    ok(await call(service, 'POST', `/team-permissions/${team}/${member.user_id}/member`, { headers: server() }), 201);
    const again = ok(await call(service, 'GET', `/team-member-profiles/${team}/me`, { headers: as(member) }));
    expect(again).toMatchObject({ primary_email: member.email, permission_ids: ['member'] });
    const admins = ok(
      await call(service, 'GET', `/team-member-profiles/${team}/${admin.user_id}`, { headers: as(member) }),
    );
    expect(admins).toMatchObject({ primary_email: admin.email, permission_ids: ['admin'] });
  });

  it('are granted and revoked by a member holding $remove_members and the permission, which the other then has', async () => {
    expectKnownError(await rename(member), 'TEAM_PERMISSION_REQUIRED', 401);
    expect(ok(await grant(admin, member.user_id, '$update_team'), 201)).toEqual({
      id: '$update_team',
      team_id: team,
      user_id: member.user_id,
    });
    expect(await held(team, member.user_id)).toEqual(['$update_team', 'member']);
    ok(await rename(member));
    const seen = ok(
      await call(service, 'GET', `/team-member-profiles/${team}/${member.user_id}`, { headers: as(admin) }),
    );
    expect(seen.permission_ids).toEqual(['$update_team', 'member']);
    ok(await grant(admin, member.user_id, '$update_team', 'DELETE'));
    expectKnownError(await rename(member), 'TEAM_PERMISSION_REQUIRED', 401);
    ok(await grant(admin, member.user_id, 'admin'), 201);
    ok(await rename(member));
    ok(await grant(admin, member.user_id, 'admin', 'DELETE'));
    expect(await held(team, member.user_id)).toEqual(['member']);
  });

  it('refuses a member without the rights, unknown members and permissions, and changes nothing', async () => {
    const stranger = await signUp(service);
    const before = await snapshot(service);
    // A member without $remove_members may not grant, not even to themselves.
    const self = await grant(member, 'me', 'admin');
    expectKnownError(self, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(self.body.details).toEqual({ team_id: team, user_id: member.user_id, permission_id: '$remove_members' });
    expectKnownError(await grant(member, admin.user_id, 'admin', 'DELETE'), 'TEAM_PERMISSION_REQUIRED', 401);
    // An admin may not hand out what they do not hold themselves (nor what does not exist).
    const missing = await grant(admin, member.user_id, 'billing_write');
    expectKnownError(missing, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(missing.body.details).toEqual({ team_id: team, user_id: admin.user_id, permission_id: 'billing_write' });
    for (const user of [stranger.user_id, 'not-a-user', '00000000-0000-4000-8000-000000000000']) {
      expectKnownError(await grant(admin, user, '$update_team'), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    }
    expectKnownError(await grant(stranger, member.user_id, 'member'), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await grant(admin, member.user_id, '$update_team', 'DELETE'), 'TEAM_PERMISSION_NOT_FOUND', 401);
    expect(await snapshot(service)).toEqual(before);
  });
});

describe('the selected team', () => {
  it('must be a team the user is in; null clears it; refusals change nothing', async () => {
    const [alice, bob] = [await signUp(service), await signUp(service)];
    const team = (await createTeam(alice)).id;
    const before = await snapshot(service);
    const notMine = await call(service, 'PATCH', '/users/me', { headers: as(bob), json: { selected_team_id: team } });
    expectKnownError(notMine, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const unknown = await call(service, 'PATCH', `/users/${bob.user_id}`, {
        headers: server(),
        json: { selected_team_id: id },
      });
      expectKnownError(unknown, 'TEAM_NOT_FOUND', 404);
    }
    // An empty id was a 500 with the database's error text: now the schema refuses it.
    for (const [path, headers] of [
      ['/users/me', as(bob)],
      [`/users/${bob.user_id}`, server()],
    ] as const) {
      const empty = await call(service, 'PATCH', path, { headers, json: { selected_team_id: '' } });
      expectKnownError(empty, 'SCHEMA_ERROR', 400);
    }
    expect(await snapshot(service)).toEqual(before);
    ok(
      await call(service, 'PATCH', '/users/me', { headers: as(alice), json: { selected_team_id: team.toUpperCase() } }),
    );
    const cleared = ok(
      await call(service, 'PATCH', '/users/me', { headers: as(alice), json: { selected_team_id: null } }),
    );
    expect(cleared.selected_team).toBeNull();
  });
});

describe('deleting', () => {
  it('a team takes its members, permissions, invitations and selections with it, and nothing else', async () => {
    const [alice, bob] = [await signUp(service), await signUp(service)];
    const doomed = (await createTeam(alice, 'Doomed')).id;
    const kept = (await createTeam(alice, 'Kept')).id;
    ok(await call(service, 'POST', `/team-memberships/${doomed}/${bob.user_id}`, { headers: server(), json: {} }), 201);
    ok(await call(service, 'PATCH', '/users/me', { headers: as(bob), json: { selected_team_id: doomed } }));
    ok(
      await call(service, 'POST', '/team-invitations/send-code', {
        headers: as(alice),
        json: {
          email: 'invitee@example.com',
          team_id: doomed,
          callback_url: 'http://localhost:3000/handler/team-invitation',
        },
      }),
    );

    ok(await call(service, 'DELETE', `/teams/${doomed}`, { headers: as(alice) }));

    const db = dbOf(service.storage);
    expect(await db.selectFrom('team_members').selectAll().where('team_id', '=', doomed).execute()).toEqual([]);
    expect(await db.selectFrom('team_member_permissions').selectAll().where('team_id', '=', doomed).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('verification_codes').selectAll().where('team_id', '=', doomed).execute()).toEqual([]);
    expect(ok(await call(service, 'GET', '/users/me', { headers: as(bob) })).selected_team_id).toBeNull();
    expect(
      ok(await call(service, 'GET', '/teams?user_id=me', { headers: as(alice) })).items.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([kept]);
    expect(await held(kept, alice.user_id)).toEqual(['admin']);
    expectKnownError(await call(service, 'GET', `/teams/${doomed}`, { headers: server() }), 'TEAM_NOT_FOUND', 404);
  });

  it('a user removes their memberships', async () => {
    const alice = await signUp(service);
    const team = (await createTeam(alice)).id;
    ok(await call(service, 'DELETE', `/users/${alice.user_id}`, { headers: server(), json: {} }));
    const profiles = ok(await call(service, 'GET', `/team-member-profiles?team_id=${team}`, { headers: server() }));
    expect(profiles.items).toEqual([]);
    expect(ok(await call(service, 'GET', `/teams/${team}`, { headers: server() })).id).toBe(team);
  });
});

describe('listing users by team', () => {
  it('pages through the members only', async () => {
    const [alice, bob, carol, outsider] = [
      await signUp(service),
      await signUp(service),
      await signUp(service),
      await signUp(service),
    ];
    const team = (await createTeam(alice)).id;
    for (const person of [bob, carol]) {
      ok(
        await call(service, 'POST', `/team-memberships/${team}/${person.user_id}`, { headers: server(), json: {} }),
        201,
      );
    }
    const first = ok(await call(service, 'GET', `/users?team_id=${team}&limit=2`, { headers: server() }));
    expect(first.items.map((user: { id: string }) => user.id)).toEqual([alice.user_id, bob.user_id]);
    const rest = ok(
      await call(service, 'GET', `/users?team_id=${team}&limit=2&cursor=${first.pagination.next_cursor}`, {
        headers: server(),
      }),
    );
    expect(rest.items.map((user: { id: string }) => user.id)).toEqual([carol.user_id]);
    expect(rest.pagination.next_cursor).toBeNull();
    expect(JSON.stringify([first, rest])).not.toContain(outsider.user_id);
    const unknown = await call(service, 'GET', '/users?team_id=00000000-0000-4000-8000-000000000000', {
      headers: server(),
    });
    expectKnownError(unknown, 'TEAM_NOT_FOUND', 404);
  });
});

describe('teams of the internal project', () => {
  it('grant their creators and members nothing, as on the original backend; server code grants what they hold', async () => {
    const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
    const internal: TestService = { ...service, projectId: internalProjectId, keys };
    const serverHeaders = authHeaders(internal, 'server');
    const [owner, joiner] = [await signUp(internal), await signUp(internal)];
    const team = ok(
      await call(internal, 'POST', '/teams', {
        headers: serverHeaders,
        json: { display_name: 'Ops', creator_user_id: owner.user_id },
      }),
      201,
    );
    ok(await call(internal, 'POST', `/team-memberships/${team.id}/${joiner.user_id}`, { headers: serverHeaders }), 201);
    for (const person of [owner, joiner]) {
      const path = `/team-permissions?team_id=${team.id}&user_id=${person.user_id}&recursive=true`;
      expect(ok(await call(internal, 'GET', path, { headers: serverHeaders })).items).toEqual([]);
    }
    const rename = () =>
      call(internal, 'PATCH', `/teams/${team.id}`, {
        headers: userHeaders(internal, owner),
        json: { display_name: 'Mine' },
      });
    const refused = await rename();
    expectKnownError(refused, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(refused.body.details).toEqual({ team_id: team.id, user_id: owner.user_id, permission_id: '$update_team' });
    const grant = `/team-permissions/${team.id}/${owner.user_id}/$update_team`;
    ok(await call(internal, 'POST', grant, { headers: serverHeaders, json: {} }), 201);
    expect(ok(await rename()).display_name).toBe('Mine');
  });
});
