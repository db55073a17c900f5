/**
 * API keys: the project's key sets (each key by its last four characters,
 * when it was made, until when it works, whether it was revoked), a new set
 * (its keys shown in full this once, in the dialog), and revocation.
 */
import type { ApiKeySet } from '@latchkey/js/admin';
import { apiKeySetsQuery } from '@latchkey/js/admin';
import { useQuery } from '@latchkey/react';
import { useProject } from '../../project.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { formatDate, formatDateTime } from '../../ui/format.js';
import { Badge, PageHeader, Section } from '../../ui/page.js';
import { CreateKeySetForm } from './create-key-set.js';
import { keyKinds } from './key-kinds.js';

export default function ApiKeysPage(_props: PageProps) {
  const sets = useQuery(apiKeySetsQuery, { suspend: false });
  const { adminApp } = useProject();
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your servers and apps call the API for this project. A key is shown in full only when it is created."
        actions={
          <FormDialog trigger="Create key set" title="Create an API key set" wide>
            {(close) => <CreateKeySetForm onDone={close} />}
          </FormDialog>
        }
      />
      <Section title="Key sets" description="Newest first. Revoking a set stops its keys at once, everywhere.">
        <DataTable
          caption="API key sets"
          columns={columns}
          rows={sets.data ? [...sets.data].reverse() : undefined}
          error={sets.error}
          onRetry={() => adminApp.invalidate(apiKeySetsQuery)}
          empty={{ title: 'No API keys yet', description: 'Create a key set to call the API from your servers.' }}
          rowId={(set) => set.id}
        />
      </Section>
    </>
  );
}

function statusOf(set: ApiKeySet) {
  const why = set.whyInvalid();
  if (why === 'expired') return <Badge tone="warning">Expired</Badge>;
  if (why === 'manually-revoked') return <Badge tone="danger">Revoked</Badge>;
  return <Badge tone="success">Active</Badge>;
}

const columns: ColumnDef<ApiKeySet>[] = [
  {
    id: 'description',
    header: 'Description',
    cell: ({ row }) => row.original.description || <span className="ld-muted">(no description)</span>,
  },
  {
    id: 'keys',
    header: 'Keys',
    cell: ({ row }) => (
      <ul className="ld-key-list">
        {keyKinds.map(({ field, label }) => {
          const key = row.original[field];
          return key ? (
            <li key={field}>
              {label} <code className="ld-mono">…{key.lastFour}</code>
            </li>
          ) : null;
        })}
      </ul>
    ),
  },
  { id: 'created', header: 'Created', cell: ({ row }) => formatDateTime(row.original.createdAt) },
  { id: 'expires', header: 'Expires', cell: ({ row }) => formatDate(row.original.expiresAt) },
  { id: 'status', header: 'Status', cell: ({ row }) => statusOf(row.original) },
  {
    id: 'actions',
    header: () => <span className="ld-visually-hidden">Actions</span>,
    cell: ({ row }) => {
      const set = row.original;
      if (!set.isValid()) return null;
      const name = set.description || 'this key set';
      return (
        <ConfirmButton
          title={`Revoke ${name}?`}
          description="Its keys stop working at once, everywhere. This cannot be undone."
          confirmLabel="Revoke key set"
          aria-label={`Revoke ${name}`}
          onConfirm={() => set.revoke()}
        >
          Revoke
        </ConfirmButton>
      );
    },
  },
];
