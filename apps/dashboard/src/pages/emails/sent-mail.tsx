/** The project's newest mails and their delivery: queued, being sent, sent, or failed with the SMTP error. */
import { type SentEmail, sentEmailsQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { formatDateTime } from '../../ui/format.js';
import { Badge } from '../../ui/page.js';
import { templateLabels } from './templates.js';

const recent = sentEmailsQuery({ limit: 50 });

const kindLabels: Record<string, string> = templateLabels;

const columns: ColumnDef<SentEmail>[] = [
  { id: 'recipient', header: 'Recipient', cell: ({ row }) => row.original.recipient },
  { id: 'subject', header: 'Subject', cell: ({ row }) => row.original.subject },
  { id: 'kind', header: 'Kind', cell: ({ row }) => kindLabels[row.original.kind] ?? row.original.kind },
  {
    id: 'time',
    header: 'Time',
    cell: ({ row }) => (
      <time dateTime={row.original.createdAt.toISOString()} className="ld-nowrap">
        {formatDateTime(row.original.createdAt)}
      </time>
    ),
  },
  { id: 'status', header: 'Delivery', cell: ({ row }) => <DeliveryStatus mail={row.original} /> },
];

function DeliveryStatus({ mail }: { mail: SentEmail }) {
  const attempts = mail.attempts === 1 ? '1 attempt' : `${mail.attempts} attempts`;
  if (mail.status === 'sent') {
    return (
      <span title={`Sent ${formatDateTime(mail.sentAt)}`}>
        <Badge tone="success">Sent</Badge>
      </span>
    );
  }
  if (mail.status === 'failed') {
    return (
      <span className="ld-delivery">
        <Badge tone="danger">Failed</Badge>
        <span className="ld-muted">
          {mail.lastError ?? 'no error recorded'} ({attempts})
        </span>
      </span>
    );
  }
  return (
    <span className="ld-delivery">
      <Badge tone="warning">{mail.status === 'sending' ? 'Sending' : 'Queued'}</Badge>
      {mail.lastError ? (
        <span className="ld-muted">
          Retrying after: {mail.lastError} ({attempts})
        </span>
      ) : null}
    </span>
  );
}

export function SentMail() {
  const { adminApp } = useProject();
  const mails = useQuery(recent, { suspend: false });
  return (
    <DataTable
      caption="Sent mail"
      columns={columns}
      rows={mails.data}
      error={mails.error}
      onRetry={() => adminApp.invalidate(['sentEmails'])}
      empty={{
        title: 'No mail sent yet',
        description: 'Verification, sign-in and reset mails show here once the project sends them.',
      }}
      rowId={(mail) => mail.id}
    />
  );
}

/** Loads the list again (delivery happens in the background, so statuses change on their own). */
export function SentMailRefresh() {
  const { adminApp } = useProject();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="lk-button lk-button-secondary ld-button-small"
      aria-busy={busy}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await adminApp.invalidate(['sentEmails']);
        } finally {
          setBusy(false);
        }
      }}
    >
      Refresh sent mail
    </button>
  );
}
