/** A user's sessions (with revoke) and their latest audit events. */
import {
  type AuditEvent,
  auditEventsQuery,
  type ServerUser,
  type UserSession,
  userSessionsQuery,
} from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import { Link } from '../../router.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { formatDateTime, formatRelative } from '../../ui/format.js';
import { Badge, Section } from '../../ui/page.js';

function When({ at }: { at: Date }) {
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at)}>
      {formatRelative(at)}
    </time>
  );
}

export function UserSessionsSection({ user }: { user: ServerUser }) {
  const { adminApp } = useProject();
  const query = userSessionsQuery(user.id);
  const sessions = useQuery(query, { suspend: false });
  const columns: ColumnDef<UserSession>[] = [
    { id: 'created', header: 'Created', cell: ({ row }) => formatDateTime(row.original.createdAt) },
    { id: 'used', header: 'Last used', cell: ({ row }) => <When at={row.original.lastUsedAt} /> },
    {
      id: 'from',
      header: 'From',
      cell: ({ row }) => {
        const { ip, userAgent } = row.original;
        if (!ip && !userAgent) return <span className="ld-muted">Not recorded</span>;
        return (
          <span className="ld-user-from">
            {ip ? <span className="ld-mono">{ip}</span> : null}
            {userAgent ? <span className="ld-muted">{userAgent}</span> : null}
          </span>
        );
      },
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: ({ row }) =>
        row.original.isImpersonation ? <Badge tone="warning">Impersonation</Badge> : <Badge>Regular</Badge>,
    },
    { id: 'expires', header: 'Expires', cell: ({ row }) => formatDateTime(row.original.expiresAt) },
    {
      id: 'revoke',
      header: 'Actions',
      cell: ({ row }) => (
        <ConfirmButton
          title="Revoke this session?"
          description="Its refresh token stops working at once; an access token already issued lasts until it expires (10 minutes at most)."
          confirmLabel="Revoke session"
          aria-label={`Revoke the session created ${formatDateTime(row.original.createdAt)}`}
          onConfirm={() => row.original.revoke()}
        >
          Revoke
        </ConfirmButton>
      ),
    },
  ];
  return (
    <Section title="Sessions" id="sessions" description="The user's active sessions, most recently used first.">
      <DataTable
        caption="Active sessions"
        columns={columns}
        rows={sessions.data}
        error={sessions.status === 'failed' ? sessions.error : undefined}
        onRetry={() => adminApp.invalidate(query)}
        rowId={(session) => session.id}
        empty={{ title: 'No active sessions', description: 'The user is signed in nowhere.' }}
      />
    </Section>
  );
}

const actorNames: Record<AuditEvent['actor']['type'], string> = {
  user: 'The user',
  server: 'Server key',
  admin: 'Administrator',
  anonymous: 'Anonymous',
  operator: 'Operator',
};

function actorText(event: AuditEvent, userId: string): string {
  const { type, id } = event.actor;
  if (type === 'user') return id === userId ? 'The user' : `User ${id ?? ''}`.trim();
  return actorNames[type];
}

export function UserAuditSection({ user }: { user: ServerUser }) {
  const { adminApp, projectId } = useProject();
  const query = auditEventsQuery({ userId: user.id, limit: 20 });
  const events = useQuery(query, { suspend: false });
  const columns: ColumnDef<AuditEvent>[] = [
    { id: 'when', header: 'When', cell: ({ row }) => <When at={row.original.occurredAt} /> },
    { id: 'type', header: 'Event', cell: ({ row }) => <span className="ld-mono">{row.original.type}</span> },
    { id: 'actor', header: 'By', cell: ({ row }) => actorText(row.original, user.id) },
    {
      id: 'ip',
      header: 'Address',
      cell: ({ row }) => (row.original.ipAddress ? <span className="ld-mono">{row.original.ipAddress}</span> : '—'),
    },
  ];
  return (
    <Section
      title="Audit events"
      id="audit"
      description="The latest 20 events about this user, newest first."
      actions={
        <Link
          className="lk-button lk-button-secondary ld-button-small"
          to={`/projects/${projectId}/audit?user=${encodeURIComponent(user.id)}`}
        >
          All events of this user
        </Link>
      }
    >
      <DataTable
        caption="Latest audit events of the user"
        columns={columns}
        rows={events.data?.items}
        error={events.status === 'failed' ? events.error : undefined}
        onRetry={() => adminApp.invalidate(query)}
        rowId={(event) => event.id}
        empty={{ title: 'No events yet', description: 'Nothing about this user has been recorded.' }}
      />
    </Section>
  );
}
