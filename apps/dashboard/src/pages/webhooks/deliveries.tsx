/**
 * An endpoint's deliveries: its messages, newest first, with their status and
 * attempts, a page at a time (the cursors in the query string), each one
 * replayable once delivered or failed, and a test event. The list re-reads
 * itself every ten seconds, every two while a message is on its way.
 */
import type { WebhookEndpoint, WebhookMessage } from '@latchkey/js/admin';
import { webhookAttemptsQuery, webhookMessagesQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, useQuery } from '@latchkey/react';
import { useEffect, useId, useState } from 'react';
import { useProject } from '../../project.js';
import { type ColumnDef, DataTable, Pager } from '../../ui/data-table.js';
import { formatDateTime } from '../../ui/format.js';
import { Badge, Section } from '../../ui/page.js';

const pageSize = 20;

export interface DeliveriesProps {
  endpoints: readonly WebhookEndpoint[];
  /** The endpoint shown. */
  endpointId: string;
  /** The cursors of the pages before this one. */
  cursors: readonly string[];
  onChange: (endpointId: string, cursors: readonly string[]) => void;
}

export function Deliveries({ endpoints, endpointId, cursors, onChange }: DeliveriesProps) {
  const { adminApp } = useProject();
  const selectId = useId();
  const query = webhookMessagesQuery(endpointId, {
    limit: pageSize,
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
  });
  const messages = useQuery(query, { suspend: false });
  const [notice, setNotice] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const moving = messages.data?.items.some((message) => message.status === 'pending' || message.status === 'sending');
  // New messages come from events anywhere: re-read every 10 s, and every 2 s while one is on its way.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is the same for the same endpoint and page
  useEffect(() => {
    const timer = setInterval(
      () => {
        void adminApp.invalidate(query);
        void adminApp.invalidate(['webhookAttempts']);
      },
      moving ? 2000 : 10_000,
    );
    return () => clearInterval(timer);
  }, [moving, adminApp, endpointId, cursors.join(' ')]);

  const sendTest = async () => {
    setTesting(true);
    setNotice(null);
    try {
      await adminApp.sendTestWebhook(endpointId);
      setNotice('A test event was queued.');
      if (cursors.length) onChange(endpointId, []);
    } catch (error) {
      setNotice(errorText(error, undefined));
    } finally {
      setTesting(false);
    }
  };

  const columns: ColumnDef<WebhookMessage>[] = [
    { id: 'event', header: 'Event', cell: ({ row }) => <code className="ld-mono">{row.original.eventType}</code> },
    { id: 'created', header: 'Created', cell: ({ row }) => formatDateTime(row.original.createdAt) },
    { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge message={row.original} /> },
    { id: 'attempts', header: 'Attempts', cell: ({ row }) => row.original.attempts },
    { id: 'answer', header: 'Last answer', cell: ({ row }) => lastAnswer(row.original) },
    { id: 'history', header: 'History', cell: ({ row }) => <AttemptHistory message={row.original} /> },
    {
      id: 'actions',
      header: () => <span className="ld-visually-hidden">Actions</span>,
      cell: ({ row }) => <ReplayButton message={row.original} onReplayed={setNotice} />,
    },
  ];

  return (
    <Section
      title="Deliveries"
      description="The messages sent to an endpoint, newest first."
      actions={
        <>
          <button
            type="button"
            className="lk-button lk-button-secondary ld-button-small"
            onClick={() => {
              void adminApp.invalidate(query);
              void adminApp.invalidate(['webhookAttempts']);
            }}
          >
            Refresh
          </button>
          <BusyButton
            type="button"
            variant="secondary"
            block={false}
            busy={testing}
            className="ld-button-small"
            onClick={sendTest}
          >
            Send test event
          </BusyButton>
        </>
      }
    >
      <div className="ld-toolbar ld-filters">
        <div className="lk-field">
          <label className="lk-label" htmlFor={selectId}>
            Endpoint
          </label>
          <select
            id={selectId}
            className="lk-input"
            value={endpointId}
            onChange={(event) => onChange(event.target.value, [])}
          >
            {endpoints.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.description ? `${endpoint.description} — ${endpoint.url}` : endpoint.url}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="ld-muted" role="status">
        {notice}
      </p>
      <DataTable
        caption="Webhook deliveries"
        columns={columns}
        rows={messages.data?.items}
        error={messages.error}
        onRetry={() => adminApp.invalidate(query)}
        empty={{
          title: 'No deliveries yet',
          description: 'Messages show here once an event the endpoint subscribes to happens.',
        }}
        rowId={(message) => message.id}
      />
      <Pager
        label={`Page ${cursors.length + 1}`}
        hasPrevious={cursors.length > 0}
        hasNext={Boolean(messages.data?.nextCursor)}
        onPrevious={() => onChange(endpointId, cursors.slice(0, -1))}
        onNext={() => {
          const next = messages.data?.nextCursor;
          if (next) onChange(endpointId, [...cursors, next]);
        }}
      />
    </Section>
  );
}

function StatusBadge({ message }: { message: WebhookMessage }) {
  switch (message.status) {
    case 'delivered':
      return <Badge tone="success">Delivered</Badge>;
    case 'failed':
      return <Badge tone="danger">Failed</Badge>;
    case 'sending':
      return <Badge tone="neutral">Sending</Badge>;
    default:
      return (
        <Badge tone="warning">
          {message.attempts > 0 && message.nextAttemptAt
            ? `Retry at ${formatDateTime(message.nextAttemptAt)}`
            : 'Pending'}
        </Badge>
      );
  }
}

function lastAnswer(message: WebhookMessage) {
  if (message.lastResponseStatus !== null) return `HTTP ${message.lastResponseStatus}`;
  if (message.lastError) return <span className="ld-muted">{message.lastError}</span>;
  return <span className="ld-muted">—</span>;
}

function ReplayButton({ message, onReplayed }: { message: WebhookMessage; onReplayed: (text: string) => void }) {
  const { adminApp } = useProject();
  const [busy, setBusy] = useState(false);
  if (message.status !== 'delivered' && message.status !== 'failed') return null;
  const replay = async () => {
    setBusy(true);
    try {
      await adminApp.replayWebhookMessage(message.id);
      onReplayed(`The ${message.eventType} message is being sent again.`);
    } catch (error) {
      onReplayed(errorText(error, undefined));
    } finally {
      setBusy(false);
    }
  };
  return (
    <BusyButton
      type="button"
      variant="secondary"
      block={false}
      busy={busy}
      className="ld-button-small"
      aria-label={`Replay the ${message.eventType} message of ${formatDateTime(message.createdAt)}`}
      onClick={replay}
    >
      Replay
    </BusyButton>
  );
}

/** Every attempt of a message (a replay's too), loaded when opened. */
function AttemptHistory({ message }: { message: WebhookMessage }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="ld-event-details" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Attempts<span className="ld-visually-hidden"> of the {message.eventType} message</span>
      </summary>
      {open ? <AttemptList messageId={message.id} /> : null}
    </details>
  );
}

function AttemptList({ messageId }: { messageId: string }) {
  const attempts = useQuery(webhookAttemptsQuery(messageId), { suspend: false });
  if (attempts.status === 'loading') return <p className="ld-muted">Loading…</p>;
  if (attempts.status === 'failed') return <p className="ld-muted">{errorText(attempts.error, undefined)}</p>;
  if (attempts.data.length === 0) return <p className="ld-muted">Not attempted yet.</p>;
  return (
    <ol className="ld-attempts">
      {attempts.data.map((attempt) => (
        <li key={attempt.id}>
          {formatDateTime(attempt.attemptedAt)}:{' '}
          {attempt.responseStatus !== null ? `HTTP ${attempt.responseStatus}` : (attempt.error ?? 'no answer')}
          <span className="ld-muted"> in {attempt.latencyMs} ms</span>
        </li>
      ))}
    </ol>
  );
}
