/**
 * Webhooks: the project's endpoints (add one, its signing secret shown once;
 * turn it on or off, rotate its secret, delete it) and the deliveries of the
 * endpoint chosen (`?endpoint=`), which `deliveries.tsx` shows.
 */
import type { WebhookEndpoint } from '@latchkey/js/admin';
import { webhookEndpointsQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { navigate, usePath, useSearch } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { Badge, PageHeader, Section } from '../../ui/page.js';
import { Deliveries } from './deliveries.js';
import { CreateEndpointForm } from './endpoint-form.js';
import { SecretNotice } from './secret-notice.js';

export default function WebhooksPage(_props: PageProps) {
  const path = usePath();
  const search = useSearch();
  const { adminApp } = useProject();
  const endpoints = useQuery(webhookEndpointsQuery, { suspend: false });
  const [rotated, setRotated] = useState<{ url: string; secret: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const list = endpoints.data ?? [];
  const wanted = search.get('endpoint');
  const shown = list.find((endpoint) => endpoint.id === wanted) ?? list[0];
  const showDeliveries = (endpointId: string, cursors: readonly string[] = []) => {
    const next = new URLSearchParams({ endpoint: endpointId });
    for (const cursor of cursors) next.append('cursor', cursor);
    navigate(`${path}?${next}`, { replace: cursors.length === 0 });
  };

  const columns: ColumnDef<WebhookEndpoint>[] = [
    {
      id: 'url',
      header: 'Endpoint',
      cell: ({ row }) => (
        <div className="ld-endpoint">
          <code className="ld-mono">{row.original.url}</code>
          {row.original.description ? <span className="ld-muted">{row.original.description}</span> : null}
        </div>
      ),
    },
    {
      id: 'events',
      header: 'Events',
      cell: ({ row }) =>
        row.original.eventTypes === null ? (
          'All'
        ) : (
          <span className="ld-event-types">{row.original.eventTypes.join(', ')}</span>
        ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) =>
        row.original.enabled ? (
          <Badge tone="success">Enabled</Badge>
        ) : (
          <span className="ld-endpoint">
            <Badge tone="warning">Disabled</Badge>
            {row.original.disabledReason ? <span className="ld-muted">{row.original.disabledReason}</span> : null}
          </span>
        ),
    },
    {
      id: 'actions',
      header: () => <span className="ld-visually-hidden">Actions</span>,
      cell: ({ row }) => (
        <EndpointActions
          endpoint={row.original}
          onRotated={(secret) => setRotated({ url: row.original.url, secret })}
          onProblem={setProblem}
          onDeliveries={() => showDeliveries(row.original.id)}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="The service POSTs signed messages to your endpoints when users, teams and sessions change."
        actions={
          <FormDialog trigger="Add endpoint" title="Add a webhook endpoint" wide>
            {(close) => <CreateEndpointForm onDone={close} />}
          </FormDialog>
        }
      />
      {rotated ? (
        <Section
          title="New signing secret"
          description={`For ${rotated.url}. The previous secret keeps signing beside it for 24 hours.`}
          actions={
            <button
              type="button"
              className="lk-button lk-button-secondary ld-button-small"
              onClick={() => setRotated(null)}
            >
              Hide secret
            </button>
          }
        >
          <SecretNotice secret={rotated.secret} />
        </Section>
      ) : null}
      <Section title="Endpoints">
        {problem ? (
          <p className="lk-alert" role="alert">
            {problem}
          </p>
        ) : null}
        <DataTable
          caption="Webhook endpoints"
          columns={columns}
          rows={endpoints.data}
          error={endpoints.error}
          onRetry={() => adminApp.invalidate(webhookEndpointsQuery)}
          empty={{
            title: 'No endpoints yet',
            description: 'Add an endpoint to be told when users, teams and sessions change.',
          }}
          rowId={(endpoint) => endpoint.id}
        />
      </Section>
      {shown ? (
        <Deliveries
          endpoints={list}
          endpointId={shown.id}
          cursors={shown.id === wanted ? search.getAll('cursor') : []}
          onChange={showDeliveries}
        />
      ) : null}
    </>
  );
}

function EndpointActions({
  endpoint,
  onRotated,
  onProblem,
  onDeliveries,
}: {
  endpoint: WebhookEndpoint;
  onRotated: (secret: string) => void;
  onProblem: (text: string | null) => void;
  onDeliveries: () => void;
}) {
  const { adminApp } = useProject();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    onProblem(null);
    try {
      await adminApp.updateWebhookEndpoint(endpoint.id, { enabled: !endpoint.enabled });
    } catch (error) {
      onProblem(errorText(error, undefined));
    } finally {
      setBusy(false);
    }
  };
  const name = endpoint.description || endpoint.url;
  return (
    <div className="ld-row-actions">
      <button
        type="button"
        className="lk-button lk-button-secondary ld-button-small"
        aria-label={`Deliveries of ${name}`}
        onClick={onDeliveries}
      >
        Deliveries
      </button>
      <BusyButton
        type="button"
        variant="secondary"
        block={false}
        busy={busy}
        className="ld-button-small"
        aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${name}`}
        onClick={toggle}
      >
        {endpoint.enabled ? 'Disable' : 'Enable'}
      </BusyButton>
      <ConfirmButton
        variant="secondary"
        title="Rotate the signing secret?"
        description={`A new secret signs the messages to ${endpoint.url}; the previous one keeps signing beside it for 24 hours, so update your receiver within that time.`}
        confirmLabel="Rotate secret"
        aria-label={`Rotate secret of ${name}`}
        onConfirm={async () => onRotated((await adminApp.rotateWebhookSecret(endpoint.id)).secret)}
      >
        Rotate secret
      </ConfirmButton>
      <ConfirmButton
        title="Delete this endpoint?"
        description={`Nothing more is sent to ${endpoint.url}, and its deliveries are deleted with it.`}
        confirmLabel="Delete endpoint"
        aria-label={`Delete ${name}`}
        onConfirm={() => adminApp.deleteWebhookEndpoint(endpoint.id)}
      >
        Delete
      </ConfirmButton>
    </div>
  );
}
