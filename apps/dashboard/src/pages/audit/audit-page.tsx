/**
 * The audit log: the project's security events, newest first, filtered by
 * user, type and days, a page at a time. Filters and the cursors of the
 * pages walked through live in the query string (`?user=&type=&since=&until=
 * &cursor=…`), so a link (the user page's) or a reload shows the same page.
 */
import type { AuditEvent } from '@latchkey/js/admin';
import { auditEventsQuery } from '@latchkey/js/admin';
import { BusyButton, Form, FormField, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { Link, navigate, usePath, useSearch } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { type ColumnDef, DataTable, Pager } from '../../ui/data-table.js';
import { TextField } from '../../ui/fields.js';
import { formatDateTime } from '../../ui/format.js';
import { DetailList, PageHeader, Section } from '../../ui/page.js';
import { EmptyState } from '../../ui/states.js';
import { auditEventGroups } from './event-types.js';

const pageSize = 50;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The local midnight starting the day `date` (`yyyy-mm-dd`) names, `days` days later; null when it names none. */
function dayStart(date: string, days = 0): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(day.getTime()) ? null : day;
}

interface Filters {
  user: string;
  type: string;
  since: string;
  until: string;
}

function filtersOf(search: URLSearchParams): Filters {
  return {
    user: search.get('user') ?? '',
    type: search.get('type') ?? '',
    since: search.get('since') ?? '',
    until: search.get('until') ?? '',
  };
}

/** The query string of `filters` and the cursors of the pages before this one. */
function searchOf(filters: Filters, cursors: readonly string[] = []): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) search.set(name, value);
  for (const cursor of cursors) search.append('cursor', cursor);
  const text = search.toString();
  return text ? `?${text}` : '';
}

export default function AuditPage(_props: PageProps) {
  const path = usePath();
  const search = useSearch();
  const filters = filtersOf(search);
  const cursors = search.getAll('cursor');
  const since = dayStart(filters.since);
  // "Until" names a day: events of that day are in.
  const until = dayStart(filters.until, 1);
  const query = auditEventsQuery({
    ...(uuid.test(filters.user) ? { userId: filters.user.toLowerCase() } : {}),
    ...(filters.type ? { types: [filters.type] } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    limit: pageSize,
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
  });
  const badUser = filters.user !== '' && !uuid.test(filters.user);
  const events = useQuery(query, { suspend: false, enabled: !badUser });
  const { adminApp } = useProject();
  const go = (next: Filters, nextCursors: readonly string[] = []) => navigate(`${path}${searchOf(next, nextCursors)}`);
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Security events of this project: sign-ins, password and session changes, keys, configuration and more."
      />
      <Section title="Filters">
        {/* A new key per URL, so that going back or following a link shows the filters in force. */}
        <FilterForm key={searchOf(filters)} filters={filters} onApply={(next) => go(next)} />
      </Section>
      <Section title="Events" description="Newest first.">
        {badUser ? (
          <EmptyState title="This address names no user">
            “{filters.user}” is not a user id: change the User id filter, or clear it.
          </EmptyState>
        ) : (
          <DataTable
            caption="Audit events"
            columns={columns}
            rows={events.data?.items}
            error={events.error}
            onRetry={() => adminApp.invalidate(query)}
            empty={{
              title: filtered ? 'No events match these filters' : 'No events yet',
              description: filtered ? 'Try a wider time range or another event type.' : undefined,
            }}
            rowId={(event) => event.id}
          />
        )}
        <Pager
          label={`Page ${cursors.length + 1}`}
          hasPrevious={cursors.length > 0}
          hasNext={Boolean(events.data?.nextCursor)}
          onPrevious={() => go(filters, cursors.slice(0, -1))}
          onNext={() => {
            const next = events.data?.nextCursor;
            if (next) go(filters, [...cursors, next]);
          }}
        />
      </Section>
    </>
  );
}

function FilterForm({ filters, onApply }: { filters: Filters; onApply: (filters: Filters) => void }) {
  const form = useFormAction(['user', 'type', 'since', 'until'] as const);
  const [draft, setDraft] = useState(filters);
  const set = (name: keyof Filters) => (value: string) => setDraft((now) => ({ ...now, [name]: value }));
  const submit = () =>
    form.submit({
      check: () => {
        const since = dayStart(draft.since);
        const until = dayStart(draft.until);
        return {
          ...(draft.user.trim() && !uuid.test(draft.user.trim())
            ? { user: 'A user id looks like 0b6c…-…: copy it from the user page.' }
            : {}),
          ...(draft.since && !since ? { since: 'Enter a date.' } : {}),
          ...(draft.until && !until ? { until: 'Enter a date.' } : {}),
          ...(since && until && until < since ? { until: 'Choose a day on or after the first day.' } : {}),
        };
      },
      work: async () => onApply({ ...draft, user: draft.user.trim() }),
    });
  const clear = () => onApply({ user: '', type: '', since: '', until: '' });
  return (
    <Form state={form} onSubmit={submit} className="ld-form" aria-label="Filter the audit log">
      <div className="ld-toolbar ld-filters">
        <TextField field="user" label="User id" value={draft.user} onValueChange={set('user')} spellCheck={false} />
        <FormField name="type" label="Event type">
          {(control) => (
            <select
              {...control}
              className="lk-input"
              value={draft.type}
              onChange={(event) => {
                set('type')(event.target.value);
                form.edited('type');
              }}
            >
              <option value="">All types</option>
              {auditEventGroups.map(({ group, types }) => (
                <optgroup key={group} label={group}>
                  {types.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </FormField>
        <FormField name="since" label="From (day)">
          {(control) => (
            <input
              {...control}
              type="date"
              className="lk-input"
              value={draft.since}
              onChange={(event) => {
                set('since')(event.target.value);
                form.edited('since');
              }}
            />
          )}
        </FormField>
        <FormField name="until" label="To (day, included)">
          {(control) => (
            <input
              {...control}
              type="date"
              className="lk-input"
              value={draft.until}
              onChange={(event) => {
                set('until')(event.target.value);
                form.edited('until');
              }}
            />
          )}
        </FormField>
      </div>
      <div className="ld-form-actions">
        <BusyButton block={false}>Apply filters</BusyButton>
        <button type="button" className="lk-button lk-button-secondary" onClick={clear}>
          Clear
        </button>
      </div>
    </Form>
  );
}

function actorText(actor: AuditEvent['actor']): string {
  const who = {
    user: 'User',
    server: 'Server key',
    admin: 'Admin',
    anonymous: 'Anonymous',
    operator: 'Operator (CLI)',
  }[actor.type];
  return actor.id ? `${who} ${actor.id}` : who;
}

function UserCell({ userId }: { userId: string | null }) {
  const { projectId } = useProject();
  if (!userId) return <span className="ld-muted">—</span>;
  return (
    <Link to={`/projects/${projectId}/users/${userId}`} className="ld-mono">
      {userId.slice(0, 8)}…<span className="ld-visually-hidden"> (user {userId})</span>
    </Link>
  );
}

const columns: ColumnDef<AuditEvent>[] = [
  { id: 'time', header: 'Time', cell: ({ row }) => formatDateTime(row.original.occurredAt) },
  { id: 'type', header: 'Event', cell: ({ row }) => <code className="ld-mono">{row.original.type}</code> },
  { id: 'user', header: 'User', cell: ({ row }) => <UserCell userId={row.original.userId} /> },
  {
    id: 'details',
    header: 'Actor and details',
    cell: ({ row }) => {
      const event = row.original;
      return (
        <details className="ld-event-details">
          <summary>
            {actorText({ type: event.actor.type, id: null })}
            <span className="ld-visually-hidden"> — details of {event.type}</span>
          </summary>
          <DetailList
            items={[
              ['Actor', actorText(event.actor)],
              ['IP address', event.ipAddress ?? '—'],
              ['User agent', event.userAgent ?? '—'],
              ['Event id', <code key="id">{event.id}</code>],
              [
                'Data',
                <pre key="data" className="ld-json">
                  {JSON.stringify(event.data, null, 2)}
                </pre>,
              ],
            ]}
          />
        </details>
      );
    },
  },
];
