/**
 * Domains: the trusted domains of the project (where sign-in may send people
 * back to, each with the path of its handler pages), added after checking
 * the URL, removed after confirmation, and whether localhost is trusted too.
 */
import { adminProjectQuery, type TrustedDomain } from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { PageHeader, Section } from '../../ui/page.js';
import { refusalOf } from '../../ui/refusals.js';
import { SettingSwitch } from '../settings/setting-switch.js';

export default function DomainsPage(_props: PageProps) {
  const { adminApp } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: true });
  const { domains, allowLocalhost } = project.config;
  return (
    <>
      <PageHeader
        title="Domains"
        description="Where your app runs: sign-in, e-mail links and OAuth only send people back to these addresses."
      />
      <Section
        title="Trusted domains"
        description="Each domain with the path of its handler pages (the sign-in callbacks, e.g. /handler)."
      >
        <DataTable
          caption="Trusted domains"
          columns={columns}
          rows={domains}
          rowId={(domain) => domain.domain}
          empty={{
            title: 'No trusted domains',
            description: allowLocalhost
              ? 'Only localhost is trusted. Add the domain your app runs on before going to production.'
              : 'Add the domain your app runs on.',
          }}
        />
        <AddDomainForm domains={domains} />
      </Section>
      <Section title="Development">
        <SettingSwitch
          label="Allow localhost"
          hint="Trust any localhost address, for development. Production mode needs it off."
          checked={allowLocalhost}
          save={(next) => adminApp.updateProject({ config: { allowLocalhost: next } })}
        />
      </Section>
    </>
  );
}

const columns: ColumnDef<TrustedDomain, unknown>[] = [
  { id: 'domain', header: 'Domain', cell: ({ row }) => <span className="ld-mono">{row.original.domain}</span> },
  {
    id: 'handler',
    header: 'Handler path',
    cell: ({ row }) => <span className="ld-mono">{row.original.handlerPath}</span>,
  },
  {
    id: 'actions',
    header: () => <span className="ld-visually-hidden">Actions</span>,
    cell: ({ row }) => (
      <div className="ld-row-actions">
        <RemoveDomain domain={row.original} />
      </div>
    ),
  },
];

function RemoveDomain({ domain }: { domain: TrustedDomain }) {
  const { adminApp } = useProject();
  return (
    <ConfirmButton
      title={`Remove ${domain.domain}?`}
      description="Sign-in and e-mail links stop sending people back to this domain."
      confirmLabel="Remove domain"
      aria-label={`Remove ${domain.domain}`}
      onConfirm={async () => {
        const { config } = await adminApp.getProject();
        await adminApp.updateProject({
          config: { domains: config.domains.filter((item) => item.domain !== domain.domain) },
        });
      }}
    >
      Remove
    </ConfirmButton>
  );
}

const loopback = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** What is wrong with `text` as a trusted domain, or null. */
function domainProblem(text: string, domains: readonly TrustedDomain[]): string | null {
  if (!text) return 'Enter the address your app runs on, e.g. https://app.example.com.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full URL, starting with https://, e.g. https://app.example.com.';
  }
  if (url.protocol === 'http:' && !loopback.test(url.hostname)) {
    return 'Use https:// (plain http:// is only for localhost).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Use an https:// address.';
  if (url.username || url.password || url.search || url.hash) {
    return 'Enter the address only, without a user name, query or fragment.';
  }
  if (domains.some((domain) => normalize(domain.domain) === normalize(text))) return 'This domain is already trusted.';
  return null;
}

const normalize = (text: string) => text.trim().replace(/\/+$/, '').toLowerCase();

function AddDomainForm({ domains }: { domains: readonly TrustedDomain[] }) {
  const { adminApp } = useProject();
  const [domain, setDomain] = useState('');
  const [handlerPath, setHandlerPath] = useState('/handler');
  const form = useFormAction(['domain', 'handlerPath'] as const);
  return (
    <Form
      state={form}
      className="ld-form ld-inline-form"
      aria-label="Add a trusted domain"
      onSubmit={() =>
        form.submit({
          check: () => {
            const problem = domainProblem(domain.trim(), domains);
            if (problem) return { domain: problem };
            if (!handlerPath.startsWith('/')) return { handlerPath: 'Start the path with /, e.g. /handler.' };
            return {};
          },
          work: async () => {
            const added = { domain: domain.trim().replace(/\/+$/, ''), handlerPath };
            const { config } = await adminApp.getProject();
            await adminApp.updateProject({ config: { domains: [...config.domains, added] } });
            setDomain('');
            return `${added.domain} added.`;
          },
          refusal: (error) => {
            return refusalOf(error, { domains: 'domain', handler_path: 'handlerPath' } as const);
          },
        })
      }
    >
      <div className="ld-form-row">
        <TextField
          field="domain"
          label="Domain"
          hint="e.g. https://app.example.com"
          inputMode="url"
          value={domain}
          onValueChange={setDomain}
        />
        <TextField field="handlerPath" label="Handler path" value={handlerPath} onValueChange={setHandlerPath} />
      </div>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Add domain</BusyButton>
        <SavedNotice form={form} />
      </div>
    </Form>
  );
}
