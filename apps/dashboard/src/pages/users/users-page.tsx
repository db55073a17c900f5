/**
 * Users: the project's users a page at a time (the service pages with
 * cursors, sorts by sign-up time, searches and filters by team), each row a
 * link to the user's page, and a dialog to create one. One request per page
 * shown; while the next loads, the page shown stays (no flash to a spinner).
 * The search, team, order and the cursors passed live in the URL.
 */
import { type Page, type ServerUser, serverTeamsQuery, serverUsersQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useProject } from '../../project.js';
import { useSearch } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { DataTable, Pager } from '../../ui/data-table.js';
import { PageHeader, Section } from '../../ui/page.js';
import { usersListColumns } from './users-list-columns.js';
import { CreateUserDialog } from './users-list-create.js';
import { readParams, showList, type UsersListParams } from './users-list-params.js';

/** Users per page. */
const usersPageSize = 25;
/** How long the search waits after the last keystroke. */
const searchDelayMs = 250;

export default function UsersPage(_props: PageProps) {
  const { projectId, adminApp } = useProject();
  const search = useSearch();
  const params = readParams(search);
  const { query, teamId, desc, cursors } = params;
  const show = (change: Partial<UsersListParams>) => showList(projectId, { ...params, cursors: [], ...change });

  const usersQuery = serverUsersQuery({
    limit: usersPageSize,
    orderBy: 'signedUpAt',
    desc,
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
    ...(query ? { query } : {}),
    ...(teamId ? { teamId } : {}),
  });
  const result = useQuery(usersQuery, { suspend: false });
  // The last page loaded stays on screen while another loads.
  const shown = useRef<{ page: Page<ServerUser>; projectId: string; query: string; teamId: string } | null>(null);
  if (result.status === 'ready') shown.current = { page: result.data, projectId, query, teamId };
  // Another project's users never stand in for this one's.
  if (shown.current?.projectId !== projectId) shown.current = null;
  const loading = result.status === 'loading';
  const visible = result.status === 'failed' ? undefined : shown.current;

  const columns = useMemo(() => usersListColumns(projectId), [projectId]);
  const pageNumber = cursors.length + 1;
  const nextCursor = visible?.page.nextCursor ?? null;

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who has an account in this project."
        actions={<CreateUserDialog />}
      />
      <Section title="All users" id="users-list">
        <div className="ld-toolbar ld-users-list-toolbar">
          <SearchBox query={query} onSearch={(text) => show({ query: text })} />
          <TeamFilter teamId={teamId} onChange={(id) => show({ teamId: id })} />
        </div>
        <div className="ld-users-list-results" aria-busy={loading && visible ? true : undefined}>
          <DataTable
            caption={query ? `Users matching “${query}”, page ${pageNumber}` : `Users, page ${pageNumber}`}
            columns={columns}
            rows={visible?.page.items}
            error={result.status === 'failed' ? result.error : undefined}
            onRetry={() => void adminApp.invalidate(usersQuery)}
            rowId={(user) => user.id}
            sorting={[{ id: 'signedUpAt', desc }]}
            onSortingChange={(sorting) => show({ desc: sorting[0]?.desc ?? !desc })}
            empty={emptyState(visible?.query ?? query, visible?.teamId ?? teamId)}
          />
        </div>
        <Pager
          label={`Page ${pageNumber}`}
          hasPrevious={cursors.length > 0}
          hasNext={nextCursor !== null}
          onPrevious={() => !loading && showList(projectId, { ...params, cursors: cursors.slice(0, -1) })}
          onNext={() => !loading && nextCursor && showList(projectId, { ...params, cursors: [...cursors, nextCursor] })}
        />
      </Section>
    </>
  );
}

function emptyState(query: string, teamId: string) {
  if (query) {
    return {
      title: `No match for “${query}”`,
      description: 'Search looks in display names and primary e-mail addresses, and for an exact user id.',
    };
  }
  if (teamId) return { title: 'No users in this team', description: 'Its members will be listed here.' };
  return {
    title: 'No users yet',
    description: 'Users appear here once they sign up, or once you create one.',
  };
}

/** The search box: the list follows it ~250 ms after the last keystroke, from page 1. */
function SearchBox({ query, onSearch }: { query: string; onSearch: (text: string) => void }) {
  const id = useId();
  const [text, setText] = useState(query);
  /** The last text this box sent, so that its own change of the URL does not overwrite newer typing. */
  const sent = useRef(query);
  useEffect(() => {
    if (query !== sent.current) {
      sent.current = query;
      setText(query);
    }
  }, [query]);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = wanted;
      latest.current(wanted);
    }, searchDelayMs);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="lk-field">
      <label className="lk-label" htmlFor={id}>
        Search users
      </label>
      <input
        id={id}
        className="lk-input"
        type="search"
        placeholder="Name, e-mail or user id"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}

/** Only the members of one team; the teams load once, for this list. */
function TeamFilter({ teamId, onChange }: { teamId: string; onChange: (teamId: string) => void }) {
  const id = useId();
  const teams = useQuery(serverTeamsQuery, { suspend: false });
  const known = teams.data ?? [];
  return (
    <div className="lk-field ld-field-inline">
      <label className="lk-label" htmlFor={id}>
        Team
      </label>
      <select
        id={id}
        className="lk-input"
        value={teamId}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={teams.status === 'failed' ? `${id}-error` : undefined}
      >
        <option value="">All teams</option>
        {teamId && !known.some((team) => team.id === teamId) ? <option value={teamId}>{teamId}</option> : null}
        {known.map((team) => (
          <option key={team.id} value={team.id}>
            {team.displayName}
          </option>
        ))}
      </select>
      {teams.status === 'failed' ? (
        <p className="lk-field-error" id={`${id}-error`}>
          The teams could not be loaded.
        </p>
      ) : null}
    </div>
  );
}
