/**
 * The Teams section: the user's teams (one of them chosen to manage), then
 * the chosen team under its own heading with what the user's permissions
 * there allow: rename (`$update_team`), the members (`$read_members`: their
 * name, else e-mail, and roles), removing them and granting or revoking the
 * roles the user holds (`$remove_members`), inviting (`$invite_members`), the
 * pending invitations and revoking them, the user's own name in the team,
 * leaving, and deleting the team (`$delete_team`); apart, after it, a form to
 * create a team when the project allows it (the new team becomes the
 * selected one). Actions the user may not take are not shown; the service
 * checks them too.
 */
import { type Team, type TeamUser, teamInvitationsQuery, teamMembersQuery, teamPermissionsQuery } from '@latchkey/js';
import { systemTeamPermissions } from '@latchkey/protocol';
import { type ReactNode, useId, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { type FormAction, type Outcome, useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { useAppData, useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { OneFieldForm } from '../teams/one-field-form.js';
import { TeamAvatar } from '../teams/selected-team-switcher.js';
import { teamLabels } from '../teams/team-labels.js';
import { createSelectedTeam, useTeams } from '../teams/use-teams.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsActions, SettingsBlock, SettingsRow, SettingsStatus } from './settings-parts.js';

const { updateTeam, deleteTeam, readMembers, removeMembers, inviteMembers } = systemTeamPermissions;

/** The Teams section's content. */
export function TeamsSection() {
  const labels = useLabels(accountSettingsLabels, teamLabels);
  const user = useUser({ or: 'redirect' });
  const teams = useTeams();
  const project = useAppData('project', { suspend: false });
  const [chosenId, setChosenId] = useState<string | null>(null);
  // Leaving or deleting takes the team's panel away: its outcome shows under the list.
  const [gone, setGone] = useState<Outcome>(null);
  const chosen =
    teams.find((team) => team.id === chosenId) ?? teams.find((team) => team.id === user.selectedTeam?.id) ?? teams[0];
  const canCreate = project.status === 'ready' && project.data.config.clientTeamCreationEnabled;
  return (
    <>
      <SettingsBlock className="lk-settings-block-wide" title={labels.accountTeamsListTitle}>
        {teams.length === 0 ? (
          <p className="lk-settings-empty">{labels.accountTeamsEmpty}</p>
        ) : (
          <ul className="lk-email-list" aria-label={labels.accountTeamsListTitle}>
            {teams.map((team) => (
              <li key={team.id} className="lk-email-row lk-team-choice" aria-current={team.id === chosen?.id}>
                <div className="lk-email-summary">
                  <span className="lk-email-identity">
                    <TeamAvatar team={team} />
                    <span className="lk-email-address">{team.displayName}</span>
                    {team.id === user.selectedTeam?.id ? (
                      <span className="lk-badge lk-badge-primary">{labels.accountTeamSelected}</span>
                    ) : null}
                  </span>
                  <button
                    type="button"
                    className="lk-button lk-button-secondary lk-button-small"
                    aria-pressed={team.id === chosen?.id}
                    onClick={() => setChosenId(team.id)}
                  >
                    {labels.accountTeamManage({ team: team.displayName })}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </SettingsBlock>
      <OutcomeNotice outcome={gone} />
      {chosen ? (
        <TeamPanel key={chosen.id} team={chosen} onGone={(text) => setGone({ kind: 'success', text })} />
      ) : null}
      {canCreate ? (
        <SettingsBlock title={labels.accountTeamCreateTitle}>
          <OneFieldForm
            label={labels.accountTeamCreateLabel}
            submit={labels.accountTeamCreateSubmit}
            onSubmit={async (name) => {
              const team = await createSelectedTeam(user, name);
              setChosenId(team.id);
              return labels.accountTeamCreated({ team: team.displayName });
            }}
          />
        </SettingsBlock>
      ) : null}
    </>
  );
}

/**
 * What the user holds in a team, its members and invitations, as queries of
 * the app: the members only with `$read_members`, the invitations only with
 * `$invite_members` too. The SDK re-reads them after every change made here.
 */
function useTeamState(team: Team) {
  const app = useApp();
  const user = useUser({ or: 'throw' });
  const permissions = useQuery(teamPermissionsQuery(team), { suspend: false, app });
  const held = new Set(permissions.data?.map((permission) => permission.id));
  const readsMembers = held.has(readMembers);
  const readsInvitations = readsMembers && held.has(inviteMembers);
  const members = useQuery(teamMembersQuery(team), { suspend: false, enabled: readsMembers, app });
  const invitations = useQuery(teamInvitationsQuery(team), { suspend: false, enabled: readsInvitations, app });
  const failed = [permissions, members, invitations].some((state) => state.status === 'failed');
  const loaded =
    permissions.status === 'ready' &&
    (!readsMembers || members.status === 'ready') &&
    (!readsInvitations || invitations.status === 'ready');
  const state = loaded
    ? { held, members: (readsMembers && members.data) || [], invitations: (readsInvitations && invitations.data) || [] }
    : null;
  return { state, failed, user };
}

function TeamPanel({ team, onGone }: { team: Team; onGone: (text: string) => void }) {
  const labels = useLabels(accountSettingsLabels, teamLabels);
  const { state, failed, user } = useTeamState(team);
  const headingId = useId();
  return (
    <section className="lk-team-panel" aria-labelledby={headingId}>
      <h3 className="lk-team-panel-title" id={headingId}>
        <TeamAvatar team={team} />
        <span>{labels.accountTeamManaging({ team: team.displayName })}</span>
      </h3>
      {failed ? (
        <p className="lk-error-text">{labels.accountTeamsLoadFailed}</p>
      ) : state ? (
        <TeamPanelBody team={team} state={state} user={user} onGone={onGone} />
      ) : (
        <SettingsStatus>{labels.accountTeamsLoading}</SettingsStatus>
      )}
    </section>
  );
}

type TeamState = NonNullable<ReturnType<typeof useTeamState>['state']>;

function TeamPanelBody({
  team,
  state,
  user,
  onGone,
}: {
  team: Team;
  state: TeamState;
  user: ReturnType<typeof useTeamState>['user'];
  onGone: (text: string) => void;
}) {
  const labels = useLabels(accountSettingsLabels, teamLabels);
  // Row actions take their row away (a removed member, a revoked invitation): their outcome shows under the list.
  const memberAction = useFormAction();
  const invitationAction = useFormAction();
  const { held, members, invitations } = state;
  const may = (permission: string) => held.has(permission);
  return (
    <>
      {may(updateTeam) ? (
        <SettingsBlock title={labels.accountTeamNameTitle}>
          <OneFieldForm
            label={labels.accountTeamNameLabel}
            initial={team.displayName}
            submit={labels.accountSave}
            onSubmit={async (name) => {
              await team.update({ displayName: name });
              return labels.accountTeamRenamed({ team: name });
            }}
          />
        </SettingsBlock>
      ) : null}
      <SettingsBlock title={labels.accountTeamProfileTitle} description={labels.accountTeamProfileDescription}>
        <OneFieldForm
          label={labels.accountTeamProfileLabel}
          initial={members.find((member) => member.id === user.id)?.teamProfile.displayName ?? ''}
          submit={labels.accountSave}
          optional
          onSubmit={async (name) => {
            const profile = await user.getTeamProfile(team);
            await profile.update({ displayName: name || null });
            return labels.accountTeamProfileSaved;
          }}
        />
      </SettingsBlock>
      {may(readMembers) ? (
        <SettingsBlock className="lk-settings-block-wide" title={labels.accountTeamMembersTitle}>
          <ul className="lk-email-list" aria-label={labels.accountTeamMembersTitle}>
            {members.map((member) => (
              <MemberRow
                key={member.id}
                team={team}
                member={member}
                you={member.id === user.id}
                held={held}
                action={memberAction}
              />
            ))}
          </ul>
          <OutcomeNotice outcome={memberAction.outcome} />
        </SettingsBlock>
      ) : null}
      {may(inviteMembers) ? (
        <SettingsBlock title={labels.accountTeamInviteTitle} description={labels.accountTeamInviteDescription}>
          <OneFieldForm
            label={labels.accountTeamInviteLabel}
            submit={labels.accountTeamInviteSubmit}
            email
            onSubmit={async (email) => {
              await team.inviteUser({ email });
              return labels.accountTeamInvited({ email });
            }}
          />
        </SettingsBlock>
      ) : null}
      {may(readMembers) && may(inviteMembers) ? (
        <SettingsBlock className="lk-settings-block-wide" title={labels.accountTeamInvitationsTitle}>
          {invitations.length === 0 ? (
            <p className="lk-settings-empty">{labels.accountTeamInvitationsEmpty}</p>
          ) : (
            <ul className="lk-email-list" aria-label={labels.accountTeamInvitationsTitle}>
              {invitations.map((invitation) => (
                <Row
                  key={invitation.id}
                  label={invitation.recipientEmail}
                  badge={labels.accountTeamInvitationExpires({ date: invitation.expiresAt.toLocaleDateString() })}
                  action={
                    may(removeMembers)
                      ? {
                          text: labels.accountTeamRevoke({ email: invitation.recipientEmail }),
                          run: async () => {
                            await invitation.revoke();
                            return labels.accountTeamRevoked({ email: invitation.recipientEmail });
                          },
                        }
                      : null
                  }
                  run={invitationAction.run}
                  busy={invitationAction.busy}
                />
              ))}
            </ul>
          )}
          <OutcomeNotice outcome={invitationAction.outcome} />
        </SettingsBlock>
      ) : null}
      <SettingsBlock title={labels.accountTeamLeaveTitle}>
        <div className="lk-settings-actions">
          <Confirmed
            text={labels.accountTeamLeave}
            question={labels.accountTeamLeaveConfirm({ team: team.displayName })}
            run={async () => {
              await user.leaveTeam(team);
              onGone(labels.accountTeamLeft({ team: team.displayName }));
              return null;
            }}
          />
          {may(deleteTeam) ? (
            <Confirmed
              text={labels.accountTeamDelete}
              question={labels.accountTeamDeleteConfirm({ team: team.displayName })}
              run={async () => {
                await team.delete();
                onGone(labels.accountTeamDeleted({ team: team.displayName }));
                return null;
              }}
            />
          ) : null}
        </div>
      </SettingsBlock>
    </>
  );
}

/** What a member is called: their team name, else their account name (the service fills it in), else e-mail. */
function memberName(member: TeamUser, unnamed: string): string {
  return member.teamProfile.displayName || member.primaryEmail || unnamed;
}

/** The system permissions after the roles, each group in id order. */
const byRoleFirst = (a: string, b: string) =>
  Number(a.startsWith('$')) - Number(b.startsWith('$')) || a.localeCompare(b);

/**
 * A member: their name, e-mail and roles (the permissions granted to them
 * directly); with `$remove_members`, removing them, and granting or revoking
 * the permissions the user holds themselves (the service's rule).
 */
function MemberRow(props: { team: Team; member: TeamUser; you: boolean; held: Set<string>; action: FormAction }) {
  const { team, member, you, held, action } = props;
  const labels = useLabels(accountSettingsLabels, teamLabels);
  const name = memberName(member, labels.accountTeamUnnamedMember);
  const manages = held.has(removeMembers);
  const grantable = [...held].filter((id) => !member.permissionIds.includes(id)).sort(byRoleFirst);
  const [chosen, setChosen] = useState('');
  const toGrant = grantable.includes(chosen) ? chosen : (grantable[0] ?? '');
  const roles = [...member.permissionIds].sort(byRoleFirst);
  const rolesId = useId();
  return (
    <SettingsRow
      name={name}
      details={
        <span className="lk-team-member-details">
          {you ? <span className="lk-badge">{labels.accountTeamYou}</span> : null}
          {member.primaryEmail && member.primaryEmail !== name ? (
            <span className="lk-team-member-email">{member.primaryEmail}</span>
          ) : null}
          <span className="lk-team-member-roles" id={rolesId}>
            <span className="lk-team-member-roles-label">{labels.accountTeamRoles}</span>
            {roles.length === 0 ? <span className="lk-team-member-no-role">{labels.accountTeamNoRole}</span> : null}
            {roles.map((role) => (
              <span key={role} className="lk-badge lk-badge-primary lk-team-role">
                {role}
              </span>
            ))}
          </span>
        </span>
      }
      busy={action.busy}
      controls={
        manages && !you ? (
          <button
            type="button"
            className="lk-button lk-button-secondary lk-button-small"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                await team.removeUser(member.id);
                return labels.accountTeamMemberRemoved({ member: name });
              })
            }
          >
            {labels.accountTeamRemoveMember({ member: name })}
          </button>
        ) : null
      }
    >
      {manages ? (
        <div className="lk-team-member-role-controls">
          {roles
            .filter((role) => held.has(role))
            .map((role) => (
              <button
                key={role}
                type="button"
                className="lk-button lk-button-secondary lk-button-small"
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    await team.revokePermission(member.id, role);
                    return labels.accountTeamRoleRevoked({ member: name, role });
                  })
                }
              >
                {labels.accountTeamRevokeRole({ member: name, role })}
              </button>
            ))}
          {grantable.length > 0 ? (
            <span className="lk-team-member-grant">
              <select
                className="lk-input lk-team-role-select"
                aria-label={labels.accountTeamGrantLabel({ member: name })}
                value={toGrant}
                onChange={(event) => setChosen(event.target.value)}
              >
                {grantable.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="lk-button lk-button-secondary lk-button-small"
                aria-label={labels.accountTeamGrantTo({ member: name })}
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    await team.grantPermission(member.id, toGrant);
                    return labels.accountTeamGranted({ member: name, role: toGrant });
                  })
                }
              >
                {labels.accountTeamGrant}
              </button>
            </span>
          ) : null}
        </div>
      ) : null}
    </SettingsRow>
  );
}

/** A row of a list (a member, an invitation) with at most one action. */
function Row(props: {
  label: string;
  badge: ReactNode;
  action: { text: string; run: () => Promise<string> } | null;
  run: FormAction['run'];
  busy: boolean;
}) {
  const { busy, run } = props;
  return (
    <SettingsRow
      name={props.label}
      details={props.badge ? <span className="lk-badge">{props.badge}</span> : null}
      controls={
        props.action ? (
          <button
            type="button"
            className="lk-button lk-button-secondary lk-button-small"
            disabled={busy}
            onClick={() => void run(props.action!.run)}
          >
            {props.action.text}
          </button>
        ) : null
      }
    />
  );
}

/** A button that asks once more before it acts (leaving, deleting). */
function Confirmed(props: { text: string; question: string; run: () => Promise<string | null> }) {
  const [asking, setAsking] = useState(false);
  const { busy, outcome, run } = useFormAction();
  if (!asking) {
    return (
      <>
        <button type="button" className="lk-button lk-button-secondary" onClick={() => setAsking(true)}>
          {props.text}
        </button>
        <OutcomeNotice outcome={outcome} />
      </>
    );
  }
  return (
    <div className="lk-confirm">
      <p className="lk-confirm-text">
        <strong>{props.question}</strong>
      </p>
      <SettingsActions onCancel={() => setAsking(false)}>
        <BusyButton
          type="button"
          variant="danger"
          block={false}
          busy={busy}
          onClick={async () => {
            if (!(await run(props.run))) setAsking(false);
          }}
        >
          {props.text}
        </BusyButton>
      </SettingsActions>
      <OutcomeNotice outcome={outcome} />
    </div>
  );
}
