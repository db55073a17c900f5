/** The teams a user is a member of, each linked to its page, with the permissions the user holds there. */
import { type ServerTeam, type ServerUser, userTeamPermissionsQuery, userTeamsQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import { Link } from '../../router.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { Badge, Section } from '../../ui/page.js';

export function UserTeamsSection({ user }: { user: ServerUser }) {
  const { adminApp, projectId } = useProject();
  const query = userTeamsQuery(user.id);
  const teams = useQuery(query, { suspend: false });
  const columns: ColumnDef<ServerTeam>[] = [
    {
      id: 'team',
      header: 'Team',
      cell: ({ row }) => (
        <Link to={`/projects/${projectId}/teams/${encodeURIComponent(row.original.id)}`}>
          {row.original.displayName}
        </Link>
      ),
    },
    {
      id: 'permissions',
      header: 'Permissions',
      cell: ({ row }) => <TeamPermissions userId={user.id} teamId={row.original.id} />,
    },
  ];
  return (
    <Section
      title="Teams and permissions"
      id="teams"
      description="Permissions include those contained in the ones granted."
    >
      <DataTable
        caption="Teams of the user"
        columns={columns}
        rows={teams.data}
        error={teams.status === 'failed' ? teams.error : undefined}
        onRetry={() => adminApp.invalidate(query)}
        rowId={(team) => team.id}
        empty={{ title: 'No teams', description: 'The user is not a member of any team.' }}
      />
    </Section>
  );
}

function TeamPermissions({ userId, teamId }: { userId: string; teamId: string }) {
  const held = useQuery(userTeamPermissionsQuery(userId, teamId), { suspend: false });
  if (held.status === 'failed') return <span className="ld-muted">Could not be loaded</span>;
  if (!held.data) return <span className="ld-muted">Loading…</span>;
  if (held.data.length === 0) return <span className="ld-muted">None</span>;
  return (
    <span className="ld-user-badges">
      {held.data.map((permission) => (
        <Badge key={permission.id}>{permission.id}</Badge>
      ))}
    </span>
  );
}
