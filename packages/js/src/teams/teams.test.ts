/**
 * Teams through the SDK against the real service (in-process): the signed-in
 * user's teams as app data, what a member does to a team, invitations
 * accepted by a second user through the mailed code, permissions, and the
 * server and admin capabilities.
 */
import { isKnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { createTestAdminApp, createTestServerApp } from '../test-support/server-apps.js';
import { createTestApp, newCredentials, useTestService } from '../test-support/service.js';

const service = useTestService({ projectConfig: { client_team_creation_enabled: true } });
const invitationPage = 'http://localhost:3000/handler/team-invitation';

async function signedUp() {
  const test = createTestApp(service(), { urls: { teamInvitation: invitationPage } });
  const credentials = newCredentials();
  await test.app.signUpWithCredential({ ...credentials, noRedirect: true });
  return { ...test, credentials, user: await test.app.getUser({ or: 'throw' }) };
}

const rejection = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );

describe('the signed-in user’s teams', { timeout: 30_000 }, () => {
  it('are app data: created, renamed, selected, left, with subscribers told', async () => {
    const { app, user } = await signedUp();
    await expect(app.load('teams')).resolves.toEqual([]);
    const heard: string[][] = [];
    const stop = app.subscribe('teams', () =>
      heard.push((app.getSnapshot('teams') ?? []).map((team) => team.displayName)),
    );

    const team = await user.createTeam({ displayName: 'Acme' });
    expect(team).toMatchObject({ displayName: 'Acme', profileImageUrl: null, clientMetadata: null });
    expect(heard.at(-1)).toEqual(['Acme']);
    await team.update({ displayName: 'Acme Inc.', clientMetadata: { plan: 'pro' } });
    expect(heard.at(-1)).toEqual(['Acme Inc.']);
    expect(await user.getTeam(team.id)).toMatchObject({ displayName: 'Acme Inc.', clientMetadata: { plan: 'pro' } });

    await user.setSelectedTeam(team);
    expect((await app.getUser({ or: 'throw' })).selectedTeam).toMatchObject({ id: team.id, displayName: 'Acme Inc.' });

    expect(await user.hasPermission(team, '$update_team')).toBe(true);
    expect(await user.hasPermission(team, 'billing')).toBe(false);
    expect(await user.getPermission(team, 'admin')).toEqual({ id: 'admin' });
    expect(await user.listPermissions(team, { recursive: false })).toEqual([{ id: 'admin' }]);

    const profile = await user.getTeamProfile(team);
    await profile.update({ displayName: 'Ada (Acme)' });
    expect((await team.listUsers()).map((member) => member.teamProfile.displayName)).toEqual(['Ada (Acme)']);

    await user.leaveTeam(team);
    expect(heard.at(-1)).toEqual([]);
    expect((await app.getUser({ or: 'throw' })).selectedTeam).toBeNull();
    stop();
  });

  it('invite by e-mail; the invited person accepts with the mailed code and joins with member permissions', async () => {
    const alice = await signedUp();
    const team = await alice.user.createTeam({ displayName: 'Invites' });
    const bobCredentials = newCredentials();
    await team.inviteUser({ email: bobCredentials.email });
    const [invitation] = await team.listInvitations();
    expect(invitation).toMatchObject({ recipientEmail: bobCredentials.email, teamId: team.id });
    expect(invitation!.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const mail = await lastMailTo(service(), bobCredentials.email);
    expect(mail.text).toContain(`${invitationPage}?code=`);
    const code = codeFromMail(mail);

    const bob = createTestApp(service());
    await bob.app.verifyTeamInvitationCode(code);
    expect(await bob.app.getTeamInvitationDetails(code)).toEqual({
      teamId: team.id,
      teamDisplayName: 'Invites',
      recipientEmail: bobCredentials.email,
    });
    await bob.app.signUpWithCredential({
      ...bobCredentials,
      noRedirect: true,
      verificationCallbackUrl: 'http://localhost:3000/handler/email-verification',
    });
    // Only a verified address accepts: Bob follows his sign-up's verification mail first.
    await bob.app.verifyEmail(codeFromMail(await lastMailTo(service(), bobCredentials.email)));
    await bob.app.acceptTeamInvitation(code);
    expect((await bob.app.load('teams')).map((joined) => joined.id)).toEqual([team.id]);
    const bobUser = await bob.app.getUser({ or: 'throw' });
    expect(await bobUser.listPermissions(team, { recursive: false })).toEqual([{ id: 'member' }]);
    expect(bobUser.primaryEmailVerified).toBe(true);
    expect(await team.listInvitations()).toEqual([]);

    const [bobsTeam] = await bob.app.load('teams');
    const refused = await rejection(bobsTeam!.update({ displayName: 'Mine' }));
    expect(isKnownError(refused, 'TEAM_PERMISSION_REQUIRED')).toBe(true);
    expect((await team.listUsers()).map((member) => member.id).sort()).toEqual([alice.user.id, bobUser.id].sort());
  });

  it('a revoked invitation cannot be accepted', async () => {
    const alice = await signedUp();
    const team = await alice.user.createTeam({ displayName: 'Revokes' });
    const email = newCredentials().email;
    await team.inviteUser({ email });
    const code = codeFromMail(await lastMailTo(service(), email));
    const [invitation] = await team.listInvitations();
    await invitation!.revoke();
    const bob = createTestApp(service());
    expect(isKnownError(await rejection(bob.app.verifyTeamInvitationCode(code)), 'VERIFICATION_CODE_NOT_FOUND')).toBe(
      true,
    );
  });
});

describe('server and admin teams', { timeout: 30_000 }, () => {
  it('create, add, grant, check, revoke, remove and delete', async () => {
    const { app: serverApp } = createTestServerApp(service());
    const creator = await serverApp.createUser({ primaryEmail: newCredentials().email, displayName: 'Grace' });
    const member = await serverApp.createUser({ primaryEmail: newCredentials().email });
    const team = await serverApp.createTeam({ displayName: 'Server Team', creatorUserId: creator.id });
    expect(team).toMatchObject({ displayName: 'Server Team', serverMetadata: null, createdAt: expect.any(Date) });

    const updated = await team.update({ serverMetadata: { plan: 'enterprise' }, clientReadOnlyMetadata: { r: 1 } });
    expect(updated).toMatchObject({ serverMetadata: { plan: 'enterprise' }, clientReadOnlyMetadata: { r: 1 } });
    await team.addUser(member.id);
    expect(isKnownError(await rejection(team.addUser(member.id)), 'TEAM_MEMBERSHIP_ALREADY_EXISTS')).toBe(true);
    const users = await team.listUsers();
    expect(users.map((user) => [user.id, user.displayName])).toEqual([
      [creator.id, 'Grace'],
      [member.id, null],
    ]);
    expect(typeof users[0]!.update).toBe('function');

    expect((await member.listTeams()).map((joined) => joined.id)).toEqual([team.id]);
    await member.grantPermission(team, 'admin');
    expect(await member.hasPermission(team, '$delete_team')).toBe(true);
    expect(isKnownError(await rejection(member.grantPermission(team, 'nope')), 'PERMISSION_NOT_FOUND')).toBe(true);
    await member.revokePermission(team, 'admin');
    expect(await member.listPermissions(team, { recursive: false })).toEqual([{ id: 'member' }]);
    const selected = await member.setSelectedTeam(team);
    expect(selected.selectedTeam).toMatchObject({ id: team.id, serverMetadata: { plan: 'enterprise' } });

    await expect(team.inviteUser({ email: 'x@example.com' } as never)).rejects.toThrow(/callbackUrl/);
    await team.inviteUser({ email: newCredentials().email, callbackUrl: invitationPage });
    expect(await team.listInvitations()).toHaveLength(1);

    await team.removeUser(member.id);
    expect(await member.listTeams()).toEqual([]);
    await team.delete();
    expect(await serverApp.getTeam(team.id)).toBeNull();
  });

  it('admin manages permission definitions that contain others', async () => {
    const { app: adminApp } = createTestAdminApp(service());
    const created = await adminApp.createTeamPermissionDefinition({
      id: 'billing_manager',
      description: 'Manage billing',
      containedPermissionIds: ['$read_members'],
    });
    expect(created).toEqual({
      id: 'billing_manager',
      description: 'Manage billing',
      containedPermissionIds: ['$read_members'],
    });
    await adminApp.updateTeamPermissionDefinition('billing_manager', { containedPermissionIds: ['member'] });
    const listed = await adminApp.listTeamPermissionDefinitions();
    expect(listed.find((definition) => definition.id === 'billing_manager')?.containedPermissionIds).toEqual([
      'member',
    ]);
    expect(listed.find((definition) => definition.id === '$update_team')).toMatchObject({ containedPermissionIds: [] });
    const cycle = await rejection(
      adminApp.updateTeamPermissionDefinition('member', { containedPermissionIds: ['billing_manager'] }),
    );
    expect(isKnownError(cycle, 'SCHEMA_ERROR')).toBe(true);
    await adminApp.deleteTeamPermissionDefinition('billing_manager');
    expect((await adminApp.listTeamPermissionDefinitions()).map((definition) => definition.id)).not.toContain(
      'billing_manager',
    );
  });
});
