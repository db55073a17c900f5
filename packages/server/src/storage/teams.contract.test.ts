/**
 * The storage contract of teams, memberships, permissions and invitations,
 * on every backend: each store's own queries, through its exported functions,
 * behave the same on PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { isKnownError } from '@latchkey/protocol';
import { expect, it } from 'vitest';
import { insertCode } from '../codes/code-store.js';
import { listPendingInvitations, revokeInvitation, revokeInvitationsTo } from '../invitations/invitation-store.js';
import {
  changeDefinition,
  deleteDefinition,
  findDefinition,
  heldPermissions,
  insertDefinition,
  listDefinitions,
  reachesPermission,
  setContainedPermissions,
} from '../permissions/definition-store.js';
import {
  defaultPermissionIds,
  grantPermissions,
  heldPermissionIds,
  holdsPermission,
  requireTeamPermission,
  revokePermission,
  systemPermissionIds,
} from '../permissions/permission-store.js';
import { defaultProjectConfig } from '../projects/project-config.js';
import {
  deleteMembership,
  deleteTeam,
  findMembership,
  findTeam,
  insertTeam,
  listMemberProfiles,
  listTeams,
  updateMemberProfile,
  updateTeam,
} from '../teams/team-store.js';
import { joinTeam as addMember } from '../teams/teams-actions.js';
import { describeEachBackend, useBackendStorage } from '../test-support/backends.js';
import { address, projectRow, projectWithDefinitions, rowsOf, userRow } from '../test-support/contract-rows.js';
import { dbOf } from './open-storage.js';
import { isUniqueViolation } from './schema.js';

describeEachBackend('team storage contract', (backend) => {
  const storage = useBackendStorage(backend);
  const db = () => dbOf(storage());
  const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

  /** A project, a team in it and a user who is its creator (default creator permissions). */
  async function teamWithCreator() {
    const projectId = await projectWithDefinitions(db());
    const team = await insertTeam(db(), { projectId, displayName: 'T', now });
    const user = await userRow(db(), projectId);
    const project = { id: projectId, config: defaultProjectConfig };
    expect(await addMember(db(), { project, teamId: team.id, userId: user.id, role: 'creator', now })).toBe(true);
    return { projectId, project, team, user, member: { projectId, teamId: team.id, userId: user.id } };
  }

  it('inserts and finds a team with its metadata and time exactly; other projects and bad ids find none', async () => {
    const projectId = await projectWithDefinitions(db());
    const metadata = { n: 1.5, s: 'é', list: [null, true, { deep: [] }], empty: {} };
    const team = await insertTeam(db(), {
      projectId,
      displayName: 'Team',
      profileImageUrl: 'https://example.com/t.png',
      clientMetadata: metadata,
      clientReadOnlyMetadata: 'text',
      serverMetadata: false,
      now,
    });
    const found = await findTeam(db(), projectId, team.id.toUpperCase());
    expect(found).toEqual(team);
    expect(found?.client_metadata).toEqual(metadata);
    expect(found?.client_read_only_metadata).toBe('text');
    expect(found?.server_metadata).toBe(false);
    expect(found?.created_at.getTime()).toBe(now);
    expect(await findTeam(db(), await projectRow(db()), team.id)).toBeNull();
    expect(await findTeam(db(), projectId, 'not-a-uuid')).toBeNull();
    expect(await findTeam(db(), projectId, randomUUID())).toBeNull();
  });

  it('updates a team’s fields, answers it unchanged for no change, and null when it is gone', async () => {
    const projectId = await projectWithDefinitions(db());
    const team = await insertTeam(db(), { projectId, displayName: 'Before', now });
    const updated = await updateTeam(db(), projectId, team.id, { display_name: 'After', server_metadata: { a: [1] } });
    expect(updated).toMatchObject({ display_name: 'After', server_metadata: { a: [1] }, client_metadata: null });
    expect(await updateTeam(db(), projectId, team.id, {})).toEqual(updated);
    expect(await deleteTeam(db(), projectId, team.id)).toBe(true);
    expect(await deleteTeam(db(), projectId, team.id)).toBe(false);
    expect(await updateTeam(db(), projectId, team.id, { display_name: 'Gone' })).toBeNull();
  });

  it('lists a project’s teams, or one user’s, oldest first', async () => {
    const projectId = await projectWithDefinitions(db());
    const project = { id: projectId, config: defaultProjectConfig };
    const later = await insertTeam(db(), { projectId, displayName: 'Later', now: now + 1000 });
    const earlier = await insertTeam(db(), { projectId, displayName: 'Earlier', now });
    const user = await userRow(db(), projectId);
    await addMember(db(), { project, teamId: later.id, userId: user.id, role: 'member', now });
    expect((await listTeams(db(), projectId, null)).map((t) => t.id)).toEqual([earlier.id, later.id]);
    expect((await listTeams(db(), projectId, user.id)).map((t) => t.id)).toEqual([later.id]);
    expect(await listTeams(db(), await projectRow(db()), null)).toEqual([]);
  });

  it('adds a member once, with the role’s default permissions', async () => {
    const { project, team, user, member } = await teamWithCreator();
    expect(await addMember(db(), { project, teamId: team.id, userId: user.id, role: 'member', now })).toBe(false);
    expect(await heldPermissionIds(db(), member, false)).toEqual(defaultPermissionIds(defaultProjectConfig, 'creator'));
    const other = await userRow(db(), project.id);
    await addMember(db(), { project, teamId: team.id, userId: other.id, role: 'member', now });
    expect(await heldPermissionIds(db(), { ...member, userId: other.id }, false)).toEqual(['member']);
    const membership = await findMembership(db(), project.id, team.id.toUpperCase(), user.id);
    expect(membership).toMatchObject({ team_id: team.id, user_id: user.id, display_name: null });
    expect(membership?.created_at.getTime()).toBe(now);
    expect(await findMembership(db(), project.id, team.id, 'nope')).toBeNull();
  });

  it('keeps a member’s team profile and lists profiles in joining order', async () => {
    const { projectId, project, team, user } = await teamWithCreator();
    const second = await userRow(db(), projectId, { displayName: 'Second' });
    await addMember(db(), { project, teamId: team.id, userId: second.id, role: 'member', now: now + 1 });
    expect(await updateMemberProfile(db(), projectId, team.id, user.id, { display_name: 'In team' })).toBe(true);
    expect(await updateMemberProfile(db(), projectId, team.id, user.id, {})).toBe(true);
    expect(await updateMemberProfile(db(), projectId, team.id, randomUUID(), { display_name: 'x' })).toBe(false);
    const profiles = await listMemberProfiles(db(), projectId, { teamId: team.id });
    expect(profiles.map((p) => [p.user.id, p.member.display_name])).toEqual([
      [user.id, 'In team'],
      [second.id, null],
    ]);
    expect(profiles[1]?.user.display_name).toBe('Second');
    expect(await listMemberProfiles(db(), projectId, { teamId: team.id, userId: second.id })).toHaveLength(1);
  });

  it('ends a membership with its grants; deleting a team takes its memberships and clears it as selected', async () => {
    const { projectId, project, team, user } = await teamWithCreator();
    const second = await userRow(db(), projectId);
    await addMember(db(), { project, teamId: team.id, userId: second.id, role: 'member', now });
    expect(await deleteMembership(db(), projectId, team.id, second.id)).toBe(true);
    expect(await deleteMembership(db(), projectId, team.id, second.id)).toBe(false);
    expect(await heldPermissionIds(db(), { projectId, teamId: team.id, userId: second.id }, true)).toEqual([]);

    await db()
      .updateTable('users')
      .set({ selected_team_id: team.id })
      .where('project_id', '=', projectId)
      .where('id', '=', user.id)
      .execute();
    expect(await deleteTeam(db(), projectId, team.id)).toBe(true);
    expect(await rowsOf(db(), 'team_members', projectId)).toBe(0);
    expect(await rowsOf(db(), 'team_member_permissions', projectId)).toBe(0);
    const selected = await db()
      .selectFrom('users')
      .select('selected_team_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(selected.selected_team_id).toBeNull();
  });

  it('starts a project with the system permissions, admin and member, listed system first then by id', async () => {
    const projectId = await projectWithDefinitions(db());
    const definitions = await listDefinitions(db(), projectId);
    const system = [...systemPermissionIds].sort();
    expect(definitions.map((d) => d.id)).toEqual([...system, 'admin', 'member']);
    expect(definitions.find((d) => d.id === 'admin')?.contained_permission_ids).toEqual(system);
    expect((await findDefinition(db(), projectId, 'member'))?.is_system).toBe(false);
    expect(await findDefinition(db(), projectId, 'missing')).toBeNull();
  });

  it('refuses a second definition of an id with a unique violation; a description may be absent', async () => {
    const projectId = await projectWithDefinitions(db());
    await insertDefinition(db(), projectId, 'custom', null, now);
    const listed = (await listDefinitions(db(), projectId)).find((d) => d.id === 'custom');
    expect(listed).toEqual({ id: 'custom', contained_permission_ids: [] });
    await expect(insertDefinition(db(), projectId, 'custom', 'again', now)).rejects.toSatisfy((error) =>
      isUniqueViolation(error),
    );
    // Another project may use the id.
    await insertDefinition(db(), await projectRow(db()), 'custom', null, now);
  });

  it('holds permissions through containment to any depth; reaches and revokes', async () => {
    const { projectId, member } = await teamWithCreator();
    for (const id of ['a', 'b', 'c']) await insertDefinition(db(), projectId, id, null, now);
    await setContainedPermissions(db(), projectId, 'a', ['b']);
    await setContainedPermissions(db(), projectId, 'b', ['c']);
    const bob = { ...member, userId: (await userRow(db(), projectId)).id };
    await addMember(db(), {
      project: { id: projectId, config: defaultProjectConfig },
      teamId: member.teamId,
      userId: bob.userId,
      role: 'member',
      now,
    });
    expect(await grantPermissions(db(), bob, ['a', 'undefined-here', 'member'])).toEqual(['a']);
    expect(await heldPermissionIds(db(), bob, false)).toEqual(['a', 'member']);
    // Sorted here: the database's collation may order `$` differently.
    expect((await heldPermissionIds(db(), bob, true)).sort()).toEqual(
      ['$invite_members', '$read_members', 'a', 'b', 'c', 'member'].sort(),
    );
    expect(await holdsPermission(db(), bob, 'c')).toBe(true);
    expect(await holdsPermission(db(), bob, '$delete_team')).toBe(false);
    expect(await reachesPermission(db(), projectId, 'a', 'c')).toBe(true);
    expect(await reachesPermission(db(), projectId, 'c', 'a')).toBe(false);
    await expect(requireTeamPermission(db(), 'client', bob, '$delete_team')).rejects.toSatisfy((error) =>
      isKnownError(error, 'TEAM_PERMISSION_REQUIRED'),
    );
    await requireTeamPermission(db(), 'client', bob, '$invite_members');
    await requireTeamPermission(db(), 'server', bob, '$delete_team');

    expect(await revokePermission(db(), bob, 'a')).toBe(true);
    expect(await revokePermission(db(), bob, 'a')).toBe(false);
    expect(await holdsPermission(db(), bob, 'c')).toBe(false);
  });

  it('renames a definition with its grants and containments; deleting it takes them', async () => {
    const { projectId, member } = await teamWithCreator();
    await insertDefinition(db(), projectId, 'old', 'Old', now);
    await insertDefinition(db(), projectId, 'parent', null, now);
    await setContainedPermissions(db(), projectId, 'parent', ['old']);
    await grantPermissions(db(), member, ['old']);
    await changeDefinition(db(), projectId, 'old', { id: 'new', description: 'New' });
    expect(await findDefinition(db(), projectId, 'old')).toBeNull();
    expect(await findDefinition(db(), projectId, 'new')).toMatchObject({ description: 'New' });
    expect(await heldPermissionIds(db(), member, false)).toContain('new');
    const parent = (await listDefinitions(db(), projectId)).find((d) => d.id === 'parent');
    expect(parent?.contained_permission_ids).toEqual(['new']);

    await deleteDefinition(db(), projectId, 'new');
    expect(await heldPermissionIds(db(), member, false)).not.toContain('new');
    expect((await listDefinitions(db(), projectId)).find((d) => d.id === 'parent')?.contained_permission_ids).toEqual(
      [],
    );
  });

  it('lists held permissions across teams and users, filtered, sorted by team, user and id', async () => {
    const { projectId, project, team, user } = await teamWithCreator();
    const other = await insertTeam(db(), { projectId, displayName: 'Other', now });
    await addMember(db(), { project, teamId: other.id, userId: user.id, role: 'member', now });
    const direct = await heldPermissions(db(), projectId, {
      teamId: null,
      userId: user.id,
      permissionId: null,
      recursive: false,
    });
    const expected = [
      { team_id: team.id, id: 'admin' },
      { team_id: other.id, id: 'member' },
    ].sort((a, b) => (a.team_id < b.team_id ? -1 : 1));
    expect(direct).toEqual(expected.map((row) => ({ ...row, user_id: user.id })));
    const invite = await heldPermissions(db(), projectId, {
      teamId: null,
      userId: null,
      permissionId: '$invite_members',
      recursive: true,
    });
    expect(invite.map((row) => row.team_id).sort()).toEqual([team.id, other.id].sort());
    const inTeam = await heldPermissions(db(), projectId, {
      teamId: team.id,
      userId: null,
      permissionId: null,
      recursive: true,
    });
    expect(inTeam.map((row) => row.id).sort()).toEqual([...systemPermissionIds, 'admin'].sort());
  });

  it('lists a team’s pending invitations oldest first; revokes one, or those to an address in any case', async () => {
    const { projectId, team } = await teamWithCreator();
    const invite = (email: string, at: number, expiresAt = at + 60_000) =>
      insertCode(db(), {
        projectId,
        purpose: 'team_invitation',
        lookupHash: randomUUID(),
        codeHash: randomUUID(),
        data: { email, team_id: team.id },
        now: at,
        expiresAt,
        teamId: team.id,
      });
    const second = await invite('Second@Example.com', now + 10);
    const first = await invite('first@example.com', now);
    await invite('expired@example.com', now - 120_000);
    const pending = await listPendingInvitations(db(), projectId, team.id, now + 20);
    expect(pending).toEqual([
      { id: first.id, team_id: team.id, recipient_email: 'first@example.com', expires_at_millis: now + 60_000 },
      { id: second.id, team_id: team.id, recipient_email: 'Second@Example.com', expires_at_millis: now + 60_010 },
    ]);
    expect(await revokeInvitation(db(), projectId, team.id, first.id)).toBe(true);
    expect(await revokeInvitation(db(), projectId, team.id, first.id)).toBe(false);
    await revokeInvitationsTo(db(), projectId, team.id, 'second@EXAMPLE.com');
    expect(await listPendingInvitations(db(), projectId, team.id, now + 20)).toEqual([]);
  });

  it('no longer lists an invitation as pending once its team is deleted', async () => {
    const { projectId, team } = await teamWithCreator();
    await insertCode(db(), {
      projectId,
      purpose: 'team_invitation',
      lookupHash: randomUUID(),
      codeHash: randomUUID(),
      data: { email: address() },
      now,
      expiresAt: now + 60_000,
      teamId: team.id,
    });
    expect(await listPendingInvitations(db(), projectId, team.id, now)).toHaveLength(1);
    await deleteTeam(db(), projectId, team.id);
    expect(await listPendingInvitations(db(), projectId, team.id, now)).toEqual([]);
  });
});
