/**
 * Team: one team's profile and metadata, its members with the permissions
 * each holds in it (grant, revoke), adding and removing members, its pending
 * invitations (invite by e-mail, revoke) and deleting it.
 */
import {
  adminProjectQuery,
  type ServerTeam,
  type ServerTeamUser,
  serverTeamInvitationsQuery,
  serverTeamMembersQuery,
  serverTeamQuery,
} from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, FormInputField, useFormAction, useQuery } from '@latchkey/react';
import { useEffect, useMemo, useState } from 'react';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { refusalOf } from '../../ui/refusals.js';

type Json = ServerTeam['serverMetadata'];

import { useProject } from '../../project.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { CopyField } from '../../ui/copy-button.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { formatDateTime } from '../../ui/format.js';
import { JsonEditor } from '../../ui/json-editor.js';
import { PageHeader, Section } from '../../ui/page.js';
import { userLabel } from './find-user.js';
import { AddMemberForm } from './team-members.js';
import { MemberPermissions } from './team-permissions.js';

export default function TeamPage({ params }: PageProps) {
  const { projectId } = useProject();
  const teamId = params.teamId!;
  const team = useQuery(serverTeamQuery(teamId), { suspend: true });
  const teamsPath = `/projects/${projectId}/teams`;
  if (!team) {
    return (
      <PageHeader
        title="Team not found"
        description="This project has no team with this id; it may have been deleted."
        back={{ to: teamsPath, label: 'Teams' }}
      />
    );
  }
  return (
    <>
      <PageHeader
        title={team.displayName}
        documentTitle={`${team.displayName} · Teams`}
        description={`Created ${formatDateTime(team.createdAt)}`}
        back={{ to: teamsPath, label: 'Teams' }}
        actions={
          <ConfirmButton
            title={`Delete the team “${team.displayName}”?`}
            description="Its memberships, the permissions granted in it and its invitations are deleted with it. This cannot be undone."
            confirmLabel="Delete team"
            onConfirm={async () => {
              await team.delete();
              navigate(teamsPath, { replace: true });
            }}
          >
            Delete team
          </ConfirmButton>
        }
      />
      <Section title="Profile">
        <CopyField label="Team id" value={team.id} />
        <ProfileForm team={team} />
      </Section>
      <MembersSection team={team} />
      <InvitationsSection team={team} />
      <Section
        title="Metadata"
        description="JSON objects kept with the team: members read the client metadata and may change it; they only read the client read-only metadata; the server metadata is for your server alone."
      >
        <div className="ld-team-metadata">
          <JsonEditor
            label="Client metadata"
            value={team.clientMetadata}
            onSave={(value) => team.update({ clientMetadata: value as Json })}
          />
          <JsonEditor
            label="Client read-only metadata"
            value={team.clientReadOnlyMetadata}
            onSave={(value) => team.update({ clientReadOnlyMetadata: value as Json })}
          />
          <JsonEditor
            label="Server metadata"
            value={team.serverMetadata}
            onSave={(value) => team.update({ serverMetadata: value as Json })}
          />
        </div>
      </Section>
    </>
  );
}

const isImageUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' || /^data:image\//.test(text);
  } catch {
    return false;
  }
};

function ProfileForm({ team }: { team: ServerTeam }) {
  const [name, setName] = useState(team.displayName);
  const [image, setImage] = useState(team.profileImageUrl ?? '');
  const form = useFormAction(['name', 'image'] as const);
  const changed = name !== team.displayName || image !== (team.profileImageUrl ?? '');
  const submit = () =>
    form.submit({
      check: () => ({
        name: name.trim() ? undefined : 'Enter the team’s name.',
        image:
          !image.trim() || isImageUrl(image.trim()) ? undefined : 'Enter an http(s) or data: image URL, or nothing.',
      }),
      work: async () => {
        await team.update({ displayName: name.trim(), profileImageUrl: image.trim() || null });
        return 'Profile saved.';
      },
      refusal: (error) => {
        return refusalOf(error, { profile_image_url: 'image', display_name: 'name' } as const);
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField field="name" label="Name" value={name} onValueChange={setName} />
      <TextField
        field="image"
        label="Profile image URL (optional)"
        hint="An https URL or a data: URL of an image."
        inputMode="url"
        value={image}
        onValueChange={setImage}
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false} disabled={!changed}>
          Save profile
        </BusyButton>
        <SavedNotice form={form} />
      </div>
    </Form>
  );
}

function MembersSection({ team }: { team: ServerTeam }) {
  const { projectId, adminApp } = useProject();
  const members = useQuery(serverTeamMembersQuery(team.id), { suspend: false });
  const columns = useMemo<ColumnDef<ServerTeamUser>[]>(
    () => [
      {
        id: 'member',
        header: 'Member',
        cell: ({ row }) => {
          const member = row.original;
          return (
            <div className="ld-member">
              <Link to={`/projects/${projectId}/users/${encodeURIComponent(member.id)}`}>{userLabel(member)}</Link>
              {member.displayName && member.primaryEmail ? (
                <span className="ld-muted">{member.primaryEmail}</span>
              ) : null}
              {member.teamProfile.displayName && member.teamProfile.displayName !== member.displayName ? (
                <span className="ld-muted">In this team: {member.teamProfile.displayName}</span>
              ) : null}
            </div>
          );
        },
      },
      {
        id: 'permissions',
        header: 'Permissions in this team',
        cell: ({ row }) => <MemberPermissions teamId={team.id} member={row.original} />,
      },
      {
        id: 'remove',
        header: () => <span className="ld-visually-hidden">Actions</span>,
        cell: ({ row }) => (
          <ConfirmButton
            title={`Remove ${userLabel(row.original)} from ${team.displayName}?`}
            description="They lose every permission they hold in this team. Their account stays."
            confirmLabel="Remove member"
            aria-label={`Remove ${userLabel(row.original)}`}
            onConfirm={() => team.removeUser(row.original.id)}
          >
            Remove
          </ConfirmButton>
        ),
      },
    ],
    [projectId, team],
  );
  return (
    <Section
      title="Members"
      description="Each member's permissions in this team: the ones granted to them, and what those contain."
      actions={
        <FormDialog trigger="Add member" title={`Add a member to ${team.displayName}`}>
          {(close) => <AddMemberForm team={team} members={members.data ?? []} onAdded={close} />}
        </FormDialog>
      }
    >
      <DataTable
        caption={`Members of ${team.displayName}`}
        columns={columns}
        rows={members.data}
        error={members.error}
        onRetry={() => adminApp.invalidate(serverTeamMembersQuery(team.id))}
        rowId={(member) => member.id}
        empty={{ title: 'No members', description: 'Add a user, or invite someone by e-mail.' }}
      />
    </Section>
  );
}

function InvitationsSection({ team }: { team: ServerTeam }) {
  const { adminApp } = useProject();
  const invitations = useQuery(serverTeamInvitationsQuery(team.id), { suspend: false });
  type Invitation = NonNullable<typeof invitations.data>[number];
  const columns = useMemo<ColumnDef<Invitation>[]>(
    () => [
      { id: 'email', header: 'E-mail', cell: ({ row }) => row.original.recipientEmail },
      { id: 'expires', header: 'Expires', cell: ({ row }) => formatDateTime(row.original.expiresAt) },
      {
        id: 'revoke',
        header: () => <span className="ld-visually-hidden">Actions</span>,
        cell: ({ row }) => (
          <ConfirmButton
            title={`Revoke the invitation to ${row.original.recipientEmail}?`}
            description="The link in their e-mail stops working."
            confirmLabel="Revoke invitation"
            aria-label={`Revoke the invitation to ${row.original.recipientEmail}`}
            onConfirm={() => row.original.revoke()}
          >
            Revoke
          </ConfirmButton>
        ),
      },
    ],
    [],
  );
  return (
    <Section
      title="Invitations"
      description="Pending invitations: the link in the e-mail lets its recipient join the team."
      actions={
        <FormDialog trigger="Invite by e-mail" title={`Invite to ${team.displayName}`} variant="secondary">
          {(close) => <InviteForm team={team} onSent={close} />}
        </FormDialog>
      }
    >
      <DataTable
        caption={`Pending invitations to ${team.displayName}`}
        columns={columns}
        rows={invitations.data}
        error={invitations.error}
        onRetry={() => adminApp.invalidate(serverTeamInvitationsQuery(team.id))}
        rowId={(invitation) => invitation.id}
        empty={{ title: 'No pending invitations' }}
      />
    </Section>
  );
}

/** The team-invitation page of the project's first trusted domain, if it has one. */
function defaultInvitationPage(
  project: { config: { domains: { domain: string; handlerPath: string }[] } } | undefined,
) {
  const first = project?.config.domains[0];
  if (!first) return '';
  return `${first.domain.replace(/\/$/, '')}${first.handlerPath.replace(/\/$/, '')}/team-invitation`;
}

function InviteForm({ team, onSent }: { team: ServerTeam; onSent: () => void }) {
  const project = useQuery(adminProjectQuery, { suspend: false });
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(() => defaultInvitationPage(project.data));
  const form = useFormAction(['email', 'page'] as const);
  // The project may load after the dialog opened: its page fills the field if still empty.
  const suggested = defaultInvitationPage(project.data);
  useEffect(() => {
    if (suggested) setPage((current) => current || suggested);
  }, [suggested]);
  const submit = () =>
    form.submit({
      check: () => ({
        email: /^[^\s@]+@[^\s@]+$/.test(email.trim()) ? undefined : 'Enter an e-mail address.',
        page: /^https?:\/\/\S+$/i.test(page.trim()) ? undefined : 'Enter the http(s) URL of your team-invitation page.',
      }),
      work: async () => {
        await team.inviteUser({ email: email.trim(), callbackUrl: page.trim() });
        onSent();
      },
      refusal: (error) => {
        return refusalOf(
          error,
          { email: 'email', callback_url: 'page' } as const,
          { REDIRECT_URL_NOT_WHITELISTED: 'page' } as const,
        );
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <FormInputField field="email" label="E-mail address" value={email} onValueChange={setEmail} />
      <TextField
        field="page"
        label="Invitation page"
        inputMode="url"
        hint={
          project.data && project.data.config.domains.length === 0
            ? 'The e-mail links to this page of your app with the invitation’s code. The project has no trusted domain yet: the page must be on localhost (allowed while the project allows it), or add a domain first.'
            : 'The e-mail links to this page of your app with the invitation’s code; it must be on a trusted domain of the project.'
        }
        value={page}
        onValueChange={setPage}
        placeholder="https://app.example.com/handler/team-invitation"
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Send invitation</BusyButton>
      </div>
    </Form>
  );
}
