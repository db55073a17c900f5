/**
 * Wire compatibility of teams, proven with the real official SDK
 * (`@stackframe/js` 2.7.23) against a real Latchkey service over HTTP on
 * loopback: a client creates, renames, selects and leaves teams, invites by
 * e-mail, reads members, profiles and permissions, and a second user accepts
 * the invitation with the mailed code; server code creates teams, adds and
 * removes members, grants and revokes permissions; the admin defines
 * permissions that contain others. What the SDK returns is asserted, not only
 * that it did not throw.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { lastCodeTo } from './support/mailbox.js';
import { codeOf, rejection } from './support/outcomes.js';
import { StackAdminApp, StackClientApp, StackServerApp } from './support/sdk.js';

const env = useCompatEnvironment();
const invitationUrl = 'http://localhost:3000/handler/team-invitation';

beforeAll(async () => {
  await env.svc.setProjectConfig({ client_team_creation_enabled: true });
});

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
});

const newEmail = () => `user-${randomUUID()}@example.com`;

function clientApp() {
  return new StackClientApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    tokenStore: 'memory',
    noAutomaticPrefetch: true,
  });
}

function serverApp() {
  return new StackServerApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    secretServerKey: env.svc.keys.secretServerKey,
    tokenStore: null,
  });
}

function adminApp() {
  return new StackAdminApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    secretServerKey: env.svc.keys.secretServerKey,
    superSecretAdminKey: env.svc.keys.superSecretAdminKey,
    tokenStore: null,
  });
}

async function signedUp(email = newEmail()) {
  const app = clientApp();
  const result = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
  expect(result).toEqual({ status: 'ok', data: undefined });
  const user = await app.getUser();
  if (!user) throw new Error('not signed in after sign-up');
  return { app, email, user };
}

describe('the official client SDK and teams', () => {
  it('creates, renames, selects a team, reads permissions and profiles, invites, and another user accepts', async () => {
    const alice = await signedUp();
    const team = await alice.user.createTeam({ displayName: "Alice's Team" });
    expect(team).toMatchObject({ displayName: "Alice's Team", profileImageUrl: null });
    expect((await alice.user.listTeams()).map((listed) => listed.id)).toEqual([team.id]);

    await team.update({ displayName: 'Renamed', clientMetadata: { plan: 'pro' } });
    const renamed = await alice.user.getTeam(team.id);
    expect(renamed).toMatchObject({ displayName: 'Renamed', clientMetadata: { plan: 'pro' } });

    await alice.user.setSelectedTeam(renamed);
    expect((await alice.app.getUser())?.selectedTeam).toMatchObject({ id: team.id, displayName: 'Renamed' });

    expect(await alice.user.hasPermission(team, 'admin')).toBe(true);
    expect(await alice.user.hasPermission(team, '$update_team')).toBe(true);
    expect(await alice.user.hasPermission(team, 'billing')).toBe(false);
    const direct = await alice.user.listPermissions(team, { recursive: false });
    expect(direct.map((permission) => permission.id)).toEqual(['admin']);
    expect((await alice.user.listPermissions(team)).map((permission) => permission.id)).toContain('$invite_members');

    const profile = await alice.user.getTeamProfile(team);
    await profile.update({ displayName: 'Alice (team)' });
    expect((await alice.user.getTeamProfile(team)).displayName).toBe('Alice (team)');

    const carol = newEmail();
    await team.inviteUser({ email: carol, callbackUrl: invitationUrl });
    const [invitation] = await team.listInvitations();
    expect(invitation).toMatchObject({ recipientEmail: carol });
    expect(invitation?.expiresAt).toBeInstanceOf(Date);
    const code = await lastCodeTo(env.svc, carol);

    const carolApp = clientApp();
    expect(await carolApp.verifyTeamInvitationCode(code)).toMatchObject({ status: 'ok' });
    const details = await carolApp.getTeamInvitationDetails(code);
    expect(details).toEqual({ status: 'ok', data: { teamDisplayName: 'Renamed' } });
    const carolUser = (await signedUp(carol)).app;
    // Only a verified address accepts: Carol follows her sign-up's verification mail first.
    expect(await carolUser.verifyEmail(await lastCodeTo(env.svc, carol))).toMatchObject({ status: 'ok' });
    expect(await carolUser.acceptTeamInvitation(code)).toMatchObject({ status: 'ok' });
    const carolSelf = await carolUser.getUser();
    expect((await carolSelf!.listTeams()).map((joined) => joined.id)).toEqual([team.id]);
    expect(await carolSelf!.hasPermission(team, '$read_members')).toBe(true);
    expect(await carolSelf!.hasPermission(team, '$delete_team')).toBe(false);

    const users = await team.listUsers();
    expect(users.map((member) => member.id).sort()).toEqual([alice.user.id, carolSelf!.id].sort());
    expect(users.find((member) => member.id === alice.user.id)?.teamProfile.displayName).toBe('Alice (team)');

    const again = await carolUser.acceptTeamInvitation(code);
    expect(again.status).toBe('error');

    await carolSelf!.leaveTeam(team);
    expect(await carolSelf!.listTeams()).toEqual([]);

    const bob = newEmail();
    await team.inviteUser({ email: bob, callbackUrl: invitationUrl });
    const [pending] = await team.listInvitations();
    await pending!.revoke();
    expect(await team.listInvitations()).toEqual([]);

    await team.delete();
    expect(await alice.user.listTeams()).toEqual([]);
    expect((await alice.app.getUser())?.selectedTeam).toBeNull();
  });

  it('refuses a member without the permission, as the SDK surfaces it', async () => {
    const alice = await signedUp();
    const team = await alice.user.createTeam({ displayName: 'Guarded' });
    const bob = await signedUp();
    await (await serverApp().getTeam(team.id))!.addUser(bob.user.id);
    const [bobsTeam] = await bob.user.listTeams();
    const refused = await rejection(bobsTeam!.update({ displayName: 'Mine' }));
    expect(codeOf(refused)).toBe('TEAM_PERMISSION_REQUIRED');
  });
});

describe('the official server and admin SDKs and teams', () => {
  it('create, update, add (twice), grant, check, revoke, invite, remove and delete', async () => {
    const server = serverApp();
    const creator = await server.createUser({ primaryEmail: newEmail() });
    const team = await server.createTeam({ displayName: 'Server Team', creatorUserId: creator.id });
    expect(team).toMatchObject({ displayName: 'Server Team', serverMetadata: null });
    expect(team.createdAt).toBeInstanceOf(Date);
    const empty = await server.createTeam({ displayName: 'Empty Team' });
    expect(await empty.listUsers()).toEqual([]);

    await team.update({ displayName: 'Server Team 2', clientReadOnlyMetadata: { r: 1 }, serverMetadata: { s: 1 } });
    expect(await server.getTeam(team.id)).toMatchObject({
      displayName: 'Server Team 2',
      clientReadOnlyMetadata: { r: 1 },
      serverMetadata: { s: 1 },
    });

    const member = await server.createUser({ primaryEmail: newEmail() });
    await team.addUser(member.id);
    expect(codeOf(await rejection(team.addUser(member.id)))).toBe('TEAM_MEMBERSHIP_ALREADY_EXISTS');
    expect((await team.listUsers()).map((user) => user.id).sort()).toEqual([creator.id, member.id].sort());
    expect((await member.listTeams()).map((joined) => joined.id)).toEqual([team.id]);

    await member.grantPermission(team, 'admin');
    expect(await member.hasPermission(team, '$delete_team')).toBe(true);
    expect(codeOf(await rejection(member.grantPermission(team, 'does_not_exist')))).toBe('PERMISSION_NOT_FOUND');
    await member.revokePermission(team, 'admin');
    expect((await member.listPermissions(team, { recursive: false })).map((permission) => permission.id)).toEqual([
      'member',
    ]);

    await team.inviteUser({ email: newEmail(), callbackUrl: invitationUrl });
    expect(await team.listInvitations()).toHaveLength(1);
    await team.removeUser(member.id);
    expect(await member.listTeams()).toEqual([]);
    await team.delete();
    expect((await server.listTeams()).map((listed) => listed.id)).not.toContain(team.id);
  });

  it('admin defines a permission, changes what it contains, and deletes it', async () => {
    const admin = adminApp();
    await admin.createTeamPermissionDefinition({
      id: 'billing_manager',
      description: 'Manage billing',
      containedPermissionIds: ['$read_members'],
    });
    const created = (await admin.listTeamPermissionDefinitions()).find(
      (definition) => definition.id === 'billing_manager',
    );
    expect(created).toMatchObject({
      id: 'billing_manager',
      description: 'Manage billing',
      containedPermissionIds: ['$read_members'],
    });
    await admin.updateTeamPermissionDefinition('billing_manager', {
      description: 'Manage all billing',
      containedPermissionIds: ['member'],
    });
    const updated = (await admin.listTeamPermissionDefinitions()).find(
      (definition) => definition.id === 'billing_manager',
    );
    expect(updated).toMatchObject({ description: 'Manage all billing', containedPermissionIds: ['member'] });
    await admin.deleteTeamPermissionDefinition('billing_manager');
    const ids = (await admin.listTeamPermissionDefinitions()).map((definition) => definition.id);
    expect(ids).not.toContain('billing_manager');
    expect(ids).toEqual(expect.arrayContaining(['$update_team', '$delete_team', 'admin', 'member']));
  });
});
