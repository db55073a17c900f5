/**
 * Teams: every team of the project, a search box and team creation. The
 * service lists a project's teams in one answer, with no search of its own,
 * so the search filters the loaded list by name or id here, and the
 * columns sort it here too.
 */
import { type ServerTeam, serverTeamsQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import type { SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useProject } from '../../project.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { formatDateTime } from '../../ui/format.js';
import { PageHeader, Section } from '../../ui/page.js';
import { looksLikeEmail, userIdOf } from './find-user.js';

export default function TeamsPage(_props: PageProps) {
  const { projectId, adminApp } = useProject();
  const teams = useQuery(serverTeamsQuery, { suspend: false });
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const rows = useMemo(() => {
    if (!teams.data) return undefined;
    const wanted = search.trim().toLowerCase();
    const found = wanted
      ? teams.data.filter((team) => team.displayName.toLowerCase().includes(wanted) || team.id.toLowerCase() === wanted)
      : [...teams.data];
    const [order] = sorting;
    const direction = order?.desc ? -1 : 1;
    return order?.id === 'created'
      ? found.sort((a, b) => direction * (+a.createdAt - +b.createdAt))
      : found.sort((a, b) => direction * a.displayName.localeCompare(b.displayName));
  }, [teams.data, search, sorting]);
  const columns = useMemo<ColumnDef<ServerTeam>[]>(
    () => [
      {
        id: 'name',
        accessorFn: (team) => team.displayName,
        header: 'Name',
        cell: ({ row }) => (
          <Link to={`/projects/${projectId}/teams/${encodeURIComponent(row.original.id)}`}>
            {row.original.displayName}
          </Link>
        ),
      },
      {
        id: 'id',
        header: 'Id',
        enableSorting: false,
        cell: ({ row }) => <code className="ld-mono">{row.original.id}</code>,
      },
      {
        id: 'created',
        accessorFn: (team) => +team.createdAt,
        header: 'Created',
        cell: ({ row }) => formatDateTime(row.original.createdAt),
      },
    ],
    [projectId],
  );
  const searching = search.trim() !== '';
  return (
    <>
      <PageHeader
        title="Teams"
        description="The teams of this project's users, their members and what each member may do."
        actions={
          <FormDialog trigger="Create team" title="Create a team">
            {(close) => <CreateTeamForm onCreated={close} />}
          </FormDialog>
        }
      />
      <Section title="All teams">
        <div className="ld-toolbar">
          <div className="lk-field">
            <label className="lk-label" htmlFor="team-search">
              Search teams
            </label>
            <input
              id="team-search"
              className="lk-input"
              type="search"
              value={search}
              placeholder="Name or id"
              aria-describedby="team-search-hint"
              onChange={(event) => setSearch(event.target.value)}
            />
            <p className="lk-hint" id="team-search-hint">
              Filters the teams listed here by name, or finds one by its id.
            </p>
          </div>
        </div>
        <DataTable
          caption="Teams"
          columns={columns}
          rows={rows}
          error={teams.error}
          onRetry={() => adminApp.invalidate(serverTeamsQuery)}
          rowId={(team) => team.id}
          sorting={sorting}
          onSortingChange={setSorting}
          empty={
            searching
              ? { title: 'No team matches', description: `No team's name contains “${search.trim()}”.` }
              : { title: 'No teams yet', description: 'Teams your users create, and the ones you create, show here.' }
          }
        />
        {rows && teams.data && searching ? (
          <p className="ld-muted" role="status">
            {rows.length} of {teams.data.length} teams
          </p>
        ) : null}
      </Section>
    </>
  );
}

function CreateTeamForm({ onCreated }: { onCreated: () => void }) {
  const { projectId, adminApp } = useProject();
  const [name, setName] = useState('');
  const [creator, setCreator] = useState('');
  const form = useFormAction(['name', 'creator'] as const);
  const submit = () =>
    form.submit({
      check: () => (name.trim() ? {} : { name: 'Enter the team’s name.' }),
      work: async () => {
        let creatorUserId: string | undefined;
        if (creator.trim()) {
          const found = await userIdOf(adminApp, creator);
          if (found === null) throw new CreatorNotFound();
          creatorUserId = found;
        }
        const team = await adminApp.createTeam({ displayName: name.trim(), creatorUserId });
        onCreated();
        navigate(`/projects/${projectId}/teams/${encodeURIComponent(team.id)}`);
      },
      refusal: (error) => {
        if (error instanceof CreatorNotFound) return { creator: 'No user has this e-mail address.' };
        if (creator.trim() && (error as { code?: string }).code === 'USER_NOT_FOUND') {
          return { creator: errorText(error, undefined) };
        }
        return null;
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <TextField field="name" label="Name" value={name} onValueChange={setName} />
      <TextField
        field="creator"
        label="Creator (optional)"
        hint="A user id or a user's e-mail address: they become the first member, with the creator permissions."
        value={creator}
        onValueChange={setCreator}
        inputMode={looksLikeEmail(creator) ? 'email' : undefined}
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Create team</BusyButton>
      </div>
    </Form>
  );
}

/** The creator was given as an address no user has. */
class CreatorNotFound extends Error {}
