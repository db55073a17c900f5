/**
 * The Teams section: the user's teams (one of them chosen to manage), a form
 * to create one when the project allows it, and for the chosen team what the
 * user's permissions there allow: rename (`$update_team`), the members
 * (`$read_members`) and removing them (`$remove_members`), inviting
 * (`$invite_members`), the pending invitations and revoking them, the user's
 * own name in the team, leaving, and deleting the team (`$delete_team`).
 * Actions the user may not take are not shown; the service checks them too.
 */
import { type Team, teamInvitationsQuery, teamMembersQuery, teamPermissionsQuery } from '@latchkey/js';
import { systemTeamPermissions } from '@latchkey/protocol';
import { type ReactNode, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { type FormAction, type Outcome, useFormAction } from '../form/use-form-action.js';
import { errorText, formMessage } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useAppData, useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { teamLabels } from '../teams/team-labels.js';
import { useTeams } from '../teams/use-teams.js';
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
                    <span className="lk-avatar lk-team-avatar" aria-hidden="true">
                      {team.displayName.slice(0, 1).toUpperCase()}
                    </span>
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
      {canCreate ? (
        <SettingsBlock title={labels.accountTeamCreateTitle}>
          <OneFieldForm
            label={labels.accountTeamCreateLabel}
            submit={labels.accountTeamCreateSubmit}
            onSubmit={async (name) => {
              const team = await user.createTeam({ displayName: name });
              setChosenId(team.id);
              return labels.accountTeamCreated({ team: team.displayName });
            }}
          />
        </SettingsBlock>
      ) : null}
      <OutcomeNotice outcome={gone} />
      {chosen ? (
        <TeamPanel key={chosen.id} team={chosen} onGone={(text) => setGone({ kind: 'success', text })} />
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
  // Row actions take their row away (a removed member, a revoked invitation): their outcome shows under the list.
  const memberAction = useFormAction();
  const invitationAction = useFormAction();
  if (failed) return <p className="lk-error-text">{labels.accountTeamsLoadFailed}</p>;
  if (!state) return <SettingsStatus>{labels.accountTeamsLoading}</SettingsStatus>;
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
            {members.map((member) => {
              const name = member.teamProfile.displayName ?? labels.accountTeamUnnamedMember;
              return (
                <Row
                  key={member.id}
                  label={name}
                  badge={member.id === user.id ? labels.accountTeamYou : null}
                  action={
                    may(removeMembers) && member.id !== user.id
                      ? {
                          text: labels.accountTeamRemoveMember({ member: name }),
                          run: async () => {
                            await team.removeUser(member.id);
                            return labels.accountTeamMemberRemoved({ member: name });
                          },
                        }
                      : null
                  }
                  run={memberAction.run}
                  busy={memberAction.busy}
                />
              );
            })}
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

/** A labelled one-field form (a name or an address) with its outcome. */
function OneFieldForm(props: {
  label: string;
  submit: string;
  initial?: string;
  email?: boolean;
  optional?: boolean;
  onSubmit: (value: string) => Promise<string>;
}) {
  const labels = useLabels(accountSettingsLabels, teamLabels);
  const messages = useMessages();
  const [value, setValue] = useState(props.initial ?? '');
  const action = useFormAction(['value'] as const);
  const onSubmit = async () => {
    const given = value.trim();
    const done = await action.submit({
      check: () => ({
        value:
          given || props.optional
            ? undefined
            : props.email
              ? formMessage('EMAIL_REQUIRED', messages)
              : labels.accountTeamNameRequired,
      }),
      work: () => props.onSubmit(given),
      // The service's refusal is about the one field: it shows there.
      refusal: (error) => ({ value: errorText(error, messages) }),
    });
    if (done && props.initial === undefined) setValue('');
  };
  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form lk-settings-inline-form">
      <FormInputField
        field="value"
        label={props.label}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          if (action.outcome) action.setOutcome(null);
        }}
        {...(props.email ? {} : { input: 'input', className: 'lk-input', maxLength: 256, required: !props.optional })}
      />
      <BusyButton block={false}>{props.submit}</BusyButton>
      <OutcomeNotice />
    </Form>
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
