// @vitest-environment node
/**
 * The teams UI on the real SDK and service: the Teams section of account
 * settings (create, rename, own team name, invite, revoke, members, remove,
 * leave, delete), shown by permission; the team switcher; the
 * team-invitation page signed out, for the invited person, and for the wrong
 * account. Rendered with a pseudo-translation, so it also proves that every
 * team word comes from the labels table and that each team label is used.
 */
import '../test-support/dom-in-node.js';
import { type ClientApp, teamMembersQuery } from '@latchkey/js';
import { startTestService, type TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSettings } from '../account-settings/account-settings.js';
import { englishLabels } from '../labels.js';
import { LatchkeyProvider } from '../provider.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { pseudoLabels } from '../test-support/pseudo-labels.js';
import { lastMailTo, mailsTo, realApp, uniqueEmail } from '../test-support/real-app.js';
import { SelectedTeamSwitcher } from './selected-team-switcher.js';
import { TeamInvitation } from './team-invitation.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ projectConfig: { client_team_creation_enabled: true } });
}, 60_000);
afterAll(async () => {
  cleanup();
  await service?.close();
});

const teamLabel = /^(accountTeam|teamSwitcher|teamInvitation)/;
/** Labels no scene here reaches: a failed or slow load, and a team deleted under an open invitation page. */
const unreachable = new Set(['accountTeamsLoadFailed', 'accountTeamsLoading', 'teamInvitationAccepting']);

const pseudo = pseudoLabels;

const seen = new Set<string>();
function collect() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of document.body.querySelectorAll('[aria-label]')) texts.push(element.getAttribute('aria-label')!);
  for (const text of texts) for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
}

const marker = (key: string, value?: string) =>
  screen.queryAllByText(new RegExp(`⟦${key}${value ? `:${value}` : ''}[⟧:,]`)).length > 0;
async function until(key: string, value?: string) {
  await waitFor(() => expect(marker(key, value), `${key}:${value ?? ''}`).toBe(true), { timeout: 8_000 });
  collect();
}
const inputOf = (label: string) => screen.getByLabelText(`⟦${label}⟧`) as HTMLInputElement;
async function fill(label: string, value: string) {
  await act(async () => {
    fireEvent.change(inputOf(label), { target: { value } });
  });
  await act(async () => {
    fireEvent.submit(inputOf(label).closest('form')!);
  });
}
async function press(name: RegExp | string) {
  const buttons = screen.getAllByRole('button', { name });
  await act(async () => {
    fireEvent.click(buttons.at(-1)!);
  });
}

function show(app: ClientApp, node: ReactNode, path = '/handler/account-settings#teams') {
  cleanup();
  visit(path);
  render(
    <LatchkeyProvider app={app} labels={pseudo}>
      {node}
    </LatchkeyProvider>,
  );
  collect();
}

async function signedUp(email = uniqueEmail('ada')) {
  const { app } = realApp(service);
  await app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true });
  return { app, email, user: await app.getUser({ or: 'throw' }) };
}

const serverHeaders = () => ({
  'content-type': 'application/json',
  'x-stack-project-id': service.projectId,
  'x-stack-access-type': 'server',
  'x-stack-secret-server-key': service.keys.secretServerKey,
});

describe('the Teams section', () => {
  it('creates, renames, invites, revokes, removes, leaves and deletes, each with what the page then shows', async () => {
    const ada = await signedUp();
    show(ada.app, <AccountSettings />);
    await until('accountTeamsEmpty');
    await fill('accountTeamCreateLabel', '   ');
    await until('accountTeamNameRequired');
    expect(await ada.app.load('teams')).toEqual([]);
    await fill('accountTeamCreateLabel', 'Acme');
    await until('accountTeamCreated', 'Acme');
    await until('accountTeamManage', 'Acme');
    expect(await axeViolations()).toEqual([]);
    await act(async () => {
      const [created] = await ada.app.load('teams');
      await (await ada.app.getUser({ or: 'throw' })).setSelectedTeam(created!);
    });
    await until('accountTeamSelected');

    await fill('accountTeamNameLabel', 'Acme Inc');
    await until('accountTeamRenamed', 'Acme Inc');
    await fill('accountTeamProfileLabel', 'Ada at Acme');
    await until('accountTeamProfileSaved');
    await until('accountTeamYou');

    const grace = uniqueEmail('grace');
    await fill('accountTeamInviteLabel', grace);
    await until('accountTeamInvited', grace);
    await until('accountTeamInvitationExpires');
    await press(`⟦accountTeamRevoke:${grace}⟧`);
    await until('accountTeamRevoked', grace);
    await until('accountTeamInvitationsEmpty');

    // Bob joins by server code; Ada removes him.
    const bob = await signedUp(uniqueEmail('bob'));
    const team = (await ada.app.load('teams'))[0]!;
    await service.fetch(`/api/v1/team-memberships/${team.id}/${bob.user.id}`, {
      method: 'POST',
      headers: serverHeaders(),
      body: '{}',
    });
    await service.fetch(`/api/v1/team-member-profiles/${team.id}/${bob.user.id}`, {
      method: 'PATCH',
      headers: serverHeaders(),
      body: JSON.stringify({ display_name: 'Bob' }),
    });
    // A change made elsewhere: the app is told, as a page told by its server would be.
    await ada.app.invalidate(teamMembersQuery(team));
    show(ada.app, <AccountSettings />);
    await until('accountTeamManaging', 'Acme Inc');
    await until('accountTeamRemoveMember', 'Bob');
    // Ada, an admin, makes Bob one too, which he then holds, and takes it back.
    await until('accountTeamRoles');
    await press('⟦accountTeamGrantTo:Bob⟧');
    await until('accountTeamGranted', 'Bob');
    expect(await bob.user.hasPermission(team, '$delete_team')).toBe(true);
    await press('⟦accountTeamRevokeRole:Bob,admin⟧');
    await until('accountTeamRoleRevoked', 'Bob');
    expect(await bob.user.hasPermission(team, '$delete_team')).toBe(false);
    expect(marker('accountTeamGrantLabel', 'Bob')).toBe(false);
    expect(screen.getByLabelText('⟦accountTeamGrantLabel:Bob⟧')).toBeTruthy();
    collect();
    await press('⟦accountTeamRemoveMember:Bob⟧');
    await until('accountTeamMemberRemoved', 'Bob');
    expect((await bob.app.load('teams')).length).toBe(0);

    await press('⟦accountTeamDelete⟧');
    await until('accountTeamDeleteConfirm', 'Acme Inc');
    await press('⟦accountCancel⟧');
    await press('⟦accountTeamLeave⟧');
    await until('accountTeamLeaveConfirm', 'Acme Inc');
    await press('⟦accountCancel⟧');
    await press('⟦accountTeamDelete⟧');
    await press('⟦accountTeamDelete⟧');
    await until('accountTeamDeleted', 'Acme Inc');
    await until('accountTeamsEmpty');
    expect(await ada.app.load('teams')).toEqual([]);

    // Leaving: a second team, left with a confirmation.
    await fill('accountTeamCreateLabel', 'Short-lived');
    await until('accountTeamCreated', 'Short-lived');
    await until('accountTeamLeaveTitle');
    await press('⟦accountTeamLeave⟧');
    await press('⟦accountTeamLeave⟧');
    await until('accountTeamLeft', 'Short-lived');
    await until('accountTeamsEmpty');
  }, 60_000);

  it('shows a member with only member permissions no rename, delete or remove', async () => {
    const ada = await signedUp();
    const team = await ada.user.createTeam({ displayName: 'Guarded' });
    const bob = await signedUp(uniqueEmail('bob'));
    await service.fetch(`/api/v1/team-memberships/${team.id}/${bob.user.id}`, {
      method: 'POST',
      headers: serverHeaders(),
      body: '{}',
    });
    show(bob.app, <AccountSettings />);
    await until('accountTeamMembersTitle');
    await until('accountTeamInviteTitle');
    expect(marker('accountTeamNameTitle')).toBe(false);
    expect(marker('accountTeamDelete')).toBe(false);
    expect(marker('accountTeamRemoveMember')).toBe(false);
    expect(marker('accountTeamLeave')).toBe(true);
    expect(marker('accountTeamSelected')).toBe(false);
    // Ada has no name: her e-mail stands for it, with her role.
    await waitFor(() => expect(screen.getAllByText(ada.email).length).toBeGreaterThan(0));
    expect(screen.getByText('admin')).toBeTruthy();
    // A member with neither name nor e-mail, and no role.
    const nobody = await (
      await service.fetch('/api/v1/users', { method: 'POST', headers: serverHeaders(), body: '{}' })
    ).json();
    await service.fetch(`/api/v1/team-memberships/${team.id}/${nobody.id}`, {
      method: 'POST',
      headers: serverHeaders(),
      body: '{}',
    });
    await service.fetch(`/api/v1/team-permissions/${team.id}/${nobody.id}/member`, {
      method: 'DELETE',
      headers: serverHeaders(),
      body: '{}',
    });
    await bob.app.invalidate(teamMembersQuery(team));
    show(bob.app, <AccountSettings />);
    await until('accountTeamUnnamedMember');
    await until('accountTeamNoRole');
  }, 30_000);
});

describe('the team switcher', () => {
  it('lists the user’s teams in a popover, stores the choice on the user, and creates a team there', async () => {
    const ada = await signedUp();
    const one = await ada.user.createTeam({ displayName: 'One' });
    const two = await ada.user.createTeam({ displayName: 'Two' });
    show(
      ada.app,
      <header>
        <SelectedTeamSwitcher />
      </header>,
      '/',
    );
    await until('teamSwitcherNone');
    const trigger = () => screen.getByRole('button', { name: '⟦teamSwitcherLabel⟧ ⟦teamSwitcherNone⟧' });
    expect(trigger().getAttribute('aria-haspopup')).toBe('dialog');
    await act(async () => {
      fireEvent.click(trigger());
    });
    const popover = screen.getByRole('dialog', { name: '⟦teamSwitcherTitle⟧' });
    expect([...popover.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['OOne', 'TTwo']);
    collect();
    expect(await axeViolations()).toEqual([]);
    await press('Two');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await ada.app.getUser({ or: 'throw' })).selectedTeam?.id).toBe(two.id);
    expect(one.id).not.toBe(two.id);
    const reopened = screen.getByRole('button', { name: '⟦teamSwitcherLabel⟧ Two' });
    await act(async () => {
      fireEvent.click(reopened);
    });
    expect(screen.getByRole('button', { name: 'Two' }).getAttribute('aria-current')).toBe('true');
    await press('⟦teamSwitcherCreate⟧');
    await fill('accountTeamCreateLabel', 'Three');
    await waitFor(() => expect(screen.getByRole('button', { name: '⟦teamSwitcherLabel⟧ Three' })).toBeTruthy());
    expect((await ada.app.getUser({ or: 'throw' })).selectedTeam?.displayName).toBe('Three');
  }, 30_000);
});

describe('the team-invitation page', () => {
  it('names the team and address, asks a visitor to sign in, refuses the wrong account, and lets the invited person join', async () => {
    const ada = await signedUp();
    const team = await ada.user.createTeam({ displayName: 'Invites' });
    const grace = uniqueEmail('grace');
    await team.inviteUser({ email: grace, callbackUrl: 'http://localhost:3000/handler/team-invitation' });
    const code = /[?&]code=([0-9a-z]{45})/i.exec((await lastMailTo(service, grace)).text)?.[1] ?? '';
    const page = `/handler/team-invitation?code=${code}`;

    const visitor = realApp(service);
    show(visitor.app, <TeamInvitation />, page);
    await until('teamInvitationTitle', 'Invites');
    await until('teamInvitationSentTo', grace);
    await until('teamInvitationSignInPrompt');
    expect(await axeViolations()).toEqual([]);
    await press('⟦teamInvitationSignUp⟧');
    await press('⟦teamInvitationSignIn⟧');
    await waitFor(() => expect(visitor.navigations.length).toBe(2));
    expect(visitor.navigations[0]).toContain('after_auth_return_to=');

    const mallory = await signedUp(uniqueEmail('mallory'));
    show(mallory.app, <TeamInvitation />, page);
    await until('teamInvitationAccept');
    await press('⟦teamInvitationAccept⟧');
    await until('teamInvitationWrongAccount', grace);
    await until('teamInvitationSwitchAccount');

    const invited = await signedUp(grace);
    // The invited address, not yet proven, beside another way in (a second address): there the link proves
    // nothing, and the page asks to verify the address, not to switch accounts.
    const second = await service.fetch('/api/v1/contact-channels', {
      method: 'POST',
      headers: serverHeaders(),
      body: JSON.stringify({
        user_id: invited.user.id,
        type: 'email',
        value: uniqueEmail('grace-work'),
        used_for_auth: false,
      }),
    });
    expect(second.status).toBe(201);
    show(invited.app, <TeamInvitation />, page);
    await until('teamInvitationAccept');
    await press('⟦teamInvitationAccept⟧');
    await until('teamInvitationVerifyFirst', grace);
    expect(screen.queryByText(/teamInvitationSwitchAccount/)).toBeNull();
    const mailsBefore = (await mailsTo(service, grace)).length;
    await press('⟦accountEmailSendVerification⟧');
    await until('accountEmailVerificationSent', grace);
    await waitFor(async () => expect((await mailsTo(service, grace)).length).toBe(mailsBefore + 1));
    // Only a verified address accepts (as the sign-up's verification mail makes it).
    await service.fetch(`/api/v1/users/${invited.user.id}`, {
      method: 'PATCH',
      headers: serverHeaders(),
      body: JSON.stringify({ primary_email_verified: true }),
    });
    show(invited.app, <TeamInvitation />, page);
    await until('teamInvitationAccept');
    await press('⟦teamInvitationAccept⟧');
    await until('teamInvitationJoinedTitle', 'Invites');
    await until('teamInvitationJoinedText');
    expect((await invited.app.load('teams')).map((joined) => joined.displayName)).toEqual(['Invites']);
    // The team joined is the selected one.
    expect((await invited.app.getUser({ or: 'throw' })).selectedTeam?.displayName).toBe('Invites');

    // The link is used now; and a team deleted under a fresh invitation says so.
    show(realApp(service).app, <TeamInvitation />, page);
    await until('linkUsedTitle');
    const doomed = await ada.user.createTeam({ displayName: 'Doomed' });
    const other = uniqueEmail('other');
    await doomed.inviteUser({ email: other, callbackUrl: 'http://localhost:3000/handler/team-invitation' });
    const orphan = /[?&]code=([0-9a-z]{45})/i.exec((await lastMailTo(service, other)).text)?.[1] ?? '';
    await doomed.delete();
    show(visitor.app, <TeamInvitation />, `/handler/team-invitation?code=${orphan}`);
    await until('teamInvitationTeamGoneTitle');
    await until('teamInvitationTeamGoneText');
    show(visitor.app, <TeamInvitation />, '/handler/team-invitation');
    await until('linkInvalidTitle');

    const missing = Object.keys(englishLabels).filter(
      (key) => teamLabel.test(key) && !seen.has(key) && !unreachable.has(key),
    );
    expect(missing).toEqual([]);
  }, 60_000);
});
