/**
 * Team permissions and their definitions over HTTP (wire-protocol §14.4):
 * grants, the transitive closure at any depth, a graph that never gets a
 * cycle, renames and deletions that reach every grant, containment and
 * default list, and system permissions nobody can change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  authHeaders,
  call,
  expectKnownError,
  expectStatusRefusal,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
const admin = () => authHeaders(service, 'admin');
const server = () => authHeaders(service, 'server');
const ok = (answer: Answer, status = 200) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('x-stack-known-error')).toBeNull();
  return answer.body;
};
const define = (id: string, contained: string[] = [], description?: string) =>
  call(service, 'POST', '/team-permission-definitions', {
    headers: admin(),
    json: { id, contained_permission_ids: contained, ...(description ? { description } : {}) },
  });
const patchDefinition = (id: string, json: unknown) =>
  call(service, 'PATCH', `/team-permission-definitions/${encodeURIComponent(id)}`, { headers: admin(), json });
const definitions = async () =>
  ok(await call(service, 'GET', '/team-permission-definitions', { headers: admin() })).items as {
    id: string;
    description?: string;
    contained_permission_ids: string[];
  }[];
const held = async (teamId: string, userId: string, recursive = true) =>
  ok(
    await call(service, 'GET', `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=${recursive}`, {
      headers: server(),
    }),
  ).items.map((item: { id: string }) => item.id);

let team: string;
let userId: string;

beforeAll(async () => {
  service = await startTestService();
  const user = await signUp(service);
  userId = user.user_id;
  team = ok(
    await call(service, 'POST', '/teams', {
      headers: server(),
      json: { display_name: 'Perms', creator_user_id: userId },
    }),
    201,
  ).id;
});
afterAll(() => service?.close());

describe('definitions', () => {
  it('start with the five system permissions, then admin and member', async () => {
    const listed = await definitions();
    expect(listed.map((definition) => definition.id)).toEqual([
      '$delete_team',
      '$invite_members',
      '$read_members',
      '$remove_members',
      '$update_team',
      'admin',
      'member',
    ]);
    expect(listed.find((definition) => definition.id === 'member')?.contained_permission_ids).toEqual([
      '$invite_members',
      '$read_members',
    ]);
  });

  it("carry Stack's descriptions", async () => {
    const described = Object.fromEntries(
      (await definitions()).map((definition) => [definition.id, definition.description]),
    );
    expect(described).toEqual({
      $delete_team: 'Delete the team',
      $invite_members: 'Invite other users to the team',
      $read_members: 'Read and list the other members of the team',
      $remove_members: 'Remove other members from the team',
      $update_team: 'Update the team information',
      admin: 'Default permission for team creators',
      member: 'Default permission for team members',
    });
  });

  it('are created with a description and what they contain', async () => {
    const created = ok(await define('billing_manager', ['$read_members'], 'Manage billing'), 201);
    expect(created).toEqual({
      id: 'billing_manager',
      description: 'Manage billing',
      contained_permission_ids: ['$read_members'],
    });
    expect((await definitions()).find((definition) => definition.id === 'billing_manager')).toEqual(created);
  });

  it('refuse bad ids, taken ids and unknown contained permissions, changing nothing', async () => {
    const before = await snapshot(service);
    for (const id of ['Upper', 'with space', '$sneaky', '', 'x'.repeat(101), 'dash-ed']) {
      expectKnownError(await define(id), 'SCHEMA_ERROR', 400);
    }
    expectKnownError(await define('billing_manager'), 'SCHEMA_ERROR', 400);
    expectKnownError(await define('self', ['self']), 'SCHEMA_ERROR', 400);
    const unknown = await define('reader', ['$read_members', 'nope']);
    expectKnownError(unknown, 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    expect(unknown.body.details).toEqual({ permission_id: 'nope' });
    const wrongType = await call(service, 'POST', '/team-permission-definitions', {
      headers: admin(),
      json: { id: 'ok_id', contained_permission_ids: 'admin' },
    });
    expectKnownError(wrongType, 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it('never form a cycle: self, direct or long, and the system permissions cannot change', async () => {
    for (const [id, contained] of [
      ['c1', []],
      ['c2', ['c1']],
      ['c3', ['c2']],
      ['c4', ['c3']],
    ] as const) {
      ok(await define(id, [...contained]), 201);
    }
    const before = await snapshot(service);
    expectKnownError(await patchDefinition('c1', { contained_permission_ids: ['c1'] }), 'SCHEMA_ERROR', 400);
    expectKnownError(await patchDefinition('c1', { contained_permission_ids: ['c2'] }), 'SCHEMA_ERROR', 400);
    const long = await patchDefinition('c1', { contained_permission_ids: ['c4'] });
    expectKnownError(long, 'SCHEMA_ERROR', 400);
    expect(long.body.error).toContain('cycle');
    for (const system of ['$update_team', '$read_members']) {
      expectKnownError(await patchDefinition(system, { description: 'mine' }), 'SCHEMA_ERROR', 400);
      const removal = await call(service, 'DELETE', `/team-permission-definitions/${system}`, { headers: admin() });
      expectKnownError(removal, 'SCHEMA_ERROR', 400);
    }
    expectKnownError(await patchDefinition('missing', { description: 'x' }), 'PERMISSION_NOT_FOUND', 404);
    expect(await snapshot(service)).toEqual(before);
  });

  it('cannot be made into a cycle by two changes at once: exactly one wins', async () => {
    ok(await define('p_one'), 201);
    ok(await define('p_two'), 201);
    const answers = await Promise.all([
      patchDefinition('p_one', { contained_permission_ids: ['p_two'] }),
      patchDefinition('p_two', { contained_permission_ids: ['p_one'] }),
    ]);
    const codes = answers.map((answer) => answer.headers.get('x-stack-known-error')).sort();
    expect(codes).toEqual(['SCHEMA_ERROR', null].sort());
  });
});

describe('held permissions', () => {
  it('include everything contained, to any depth, each once (diamonds too)', async () => {
    // d_top contains d_left and d_right, both contain d_bottom, which contains c4 (→ c3 → c2 → c1).
    ok(await define('d_bottom', ['c4']), 201);
    ok(await define('d_left', ['d_bottom']), 201);
    ok(await define('d_right', ['d_bottom', '$read_members']), 201);
    ok(await define('d_top', ['d_left', 'd_right']), 201);
    const granted = await call(service, 'POST', `/team-permissions/${team}/${userId}/d_top`, {
      headers: server(),
      json: {},
    });
    expect(ok(granted, 201)).toEqual({ id: 'd_top', user_id: userId, team_id: team });
    const all = await held(team, userId);
    expect(all).toEqual(
      [
        '$delete_team',
        '$invite_members',
        '$read_members',
        '$remove_members',
        '$update_team',
        'admin',
        'c1',
        'c2',
        'c3',
        'c4',
        'd_bottom',
        'd_left',
        'd_right',
        'd_top',
      ].sort(),
    );
    expect(await held(team, userId, false)).toEqual(['admin', 'd_top']);
    const filtered = ok(
      await call(
        service,
        'GET',
        `/team-permissions?team_id=${team}&user_id=${userId}&permission_id=c1&recursive=true`,
        {
          headers: server(),
        },
      ),
    );
    expect(filtered.items).toEqual([{ id: 'c1', user_id: userId, team_id: team }]);
  });

  it('are listed as granted directly unless `recursive=true` asks for what they contain, as the original backend', async () => {
    const list = async (query: string) =>
      ok(
        await call(service, 'GET', `/team-permissions?team_id=${team}&user_id=${userId}${query}`, {
          headers: server(),
        }),
      );
    const direct = await list('');
    expect(direct).toEqual({
      items: [
        { id: 'admin', user_id: userId, team_id: team },
        { id: 'd_top', user_id: userId, team_id: team },
      ],
      is_paginated: false,
    });
    expect(await list('&recursive=false')).toEqual(direct);
    expect((await list('&permission_id=c1')).items).toEqual([]);
    expect((await list('&recursive=true')).items).toHaveLength(14);
  });

  it('are granted once, revoked when granted directly, and refused for unknown ids and non-members', async () => {
    const again = await call(service, 'POST', `/team-permissions/${team}/${userId}/d_top`, {
      headers: server(),
      json: {},
    });
    ok(again, 201);
    expect(await held(team, userId, false)).toEqual(['admin', 'd_top']);
    const unknown = await call(service, 'POST', `/team-permissions/${team}/${userId}/does_not_exist`, {
      headers: server(),
      json: {},
    });
    expectKnownError(unknown, 'PERMISSION_NOT_FOUND', 404);
    const stranger = await signUp(service);
    const notMember = await call(service, 'POST', `/team-permissions/${team}/${stranger.user_id}/admin`, {
      headers: server(),
      json: {},
    });
    expectKnownError(notMember, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const indirect = await call(service, 'DELETE', `/team-permissions/${team}/${userId}/c1`, {
      headers: server(),
      json: {},
    });
    expectKnownError(indirect, 'TEAM_PERMISSION_NOT_FOUND', 401);
    ok(await call(service, 'DELETE', `/team-permissions/${team}/${userId}/d_top`, { headers: server(), json: {} }));
    expect(await held(team, userId, false)).toEqual(['admin']);
  });

  it('are listed for every member of a team, or across the project, with server access', async () => {
    const other = await signUp(service);
    ok(await call(service, 'POST', `/team-memberships/${team}/${other.user_id}`, { headers: server(), json: {} }), 201);
    const listed = ok(
      await call(service, 'GET', `/team-permissions?team_id=${team}&recursive=false`, { headers: server() }),
    );
    expect(listed.items).toEqual(
      expect.arrayContaining([
        { id: 'admin', user_id: userId, team_id: team },
        { id: 'member', user_id: other.user_id, team_id: team },
      ]),
    );
    expect(listed.items).toHaveLength(2);
    const everywhere = ok(
      await call(service, 'GET', '/team-permissions?permission_id=$read_members&recursive=true', { headers: server() }),
    );
    expect(everywhere.items).toEqual(
      expect.arrayContaining([
        { id: '$read_members', user_id: userId, team_id: team },
        { id: '$read_members', user_id: other.user_id, team_id: team },
      ]),
    );
    ok(await call(service, 'DELETE', `/team-memberships/${team}/${other.user_id}`, { headers: server(), json: {} }));
  });

  it('are listed for a client only for itself, in a team', async () => {
    const member = await signUp(service);
    const headers = userHeaders(service, member);
    const noTeam = await call(service, 'GET', '/team-permissions?user_id=me', { headers });
    expectKnownError(noTeam, 'SCHEMA_ERROR', 400);
    const ownOnly =
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user';
    const noUser = await call(service, 'GET', `/team-permissions?team_id=${team}`, { headers });
    expectStatusRefusal(noUser, 403, ownOnly);
    const otherUser = await call(
      service,
      'GET',
      `/team-permissions?team_id=${team}&user_id=${(await signUp(service)).user_id}`,
      {
        headers,
      },
    );
    expectStatusRefusal(otherUser, 403, ownOnly);
    const signedOut = await call(service, 'GET', `/team-permissions?team_id=${team}&user_id=${member.user_id}`, {
      headers: authHeaders(service),
    });
    expectKnownError(signedOut, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const unknownTeam = await call(service, 'GET', '/team-permissions?team_id=nope&user_id=me', { headers });
    expectKnownError(unknownTeam, 'TEAM_NOT_FOUND', 404);
  });
});

describe('renaming and deleting a definition', () => {
  it('renames it in grants, containments and the default lists; deleting removes it from all of them', async () => {
    ok(await define('editor', ['$update_team']), 201);
    ok(await define('chief', ['editor']), 201);
    ok(await call(service, 'POST', `/team-permissions/${team}/${userId}/editor`, { headers: server(), json: {} }), 201);
    ok(
      await call(service, 'PATCH', '/projects/current', {
        headers: admin(),
        json: { config: { team_member_default_permissions: [{ id: 'member' }, { id: 'editor' }] } },
      }),
    );

    const renamed = ok(await patchDefinition('editor', { id: 'writer', description: 'Writes' }));
    expect(renamed).toEqual({ id: 'writer', description: 'Writes', contained_permission_ids: ['$update_team'] });
    expect(await held(team, userId, false)).toEqual(['admin', 'writer']);
    expect((await definitions()).find((definition) => definition.id === 'chief')?.contained_permission_ids).toEqual([
      'writer',
    ]);
    const config = async () => ok(await call(service, 'GET', '/projects/current', { headers: admin() })).config;
    expect((await config()).team_member_default_permissions).toEqual([{ id: 'member' }, { id: 'writer' }]);

    ok(await call(service, 'DELETE', '/team-permission-definitions/writer', { headers: admin() }));
    expect(await held(team, userId, false)).toEqual(['admin']);
    expect((await definitions()).find((definition) => definition.id === 'chief')?.contained_permission_ids).toEqual([]);
    expect((await config()).team_member_default_permissions).toEqual([{ id: 'member' }]);
    const gone = await call(service, 'DELETE', '/team-permission-definitions/writer', { headers: admin() });
    expectKnownError(gone, 'PERMISSION_NOT_FOUND', 404);
  });

  it('refuses default lists that name a permission that does not exist', async () => {
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/projects/current', {
      headers: admin(),
      json: { config: { team_creator_default_permissions: [{ id: 'ghost' }] } },
    });
    expectKnownError(answer, 'PERMISSION_NOT_FOUND', 404);
    expect(await snapshot(service)).toEqual(before);
  });
});
