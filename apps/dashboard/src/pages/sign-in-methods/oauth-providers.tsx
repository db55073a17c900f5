/**
 * The OAuth providers of a project: listed with their keys and state, added
 * or edited in a dialog (a preset on the service's shared development keys
 * or on the project's own client id and secret, or any OpenID Connect
 * issuer with the name of its button), removed after confirmation. Each
 * form shows the callback URL to register at the provider.
 */
import type { AdminProject, OAuthProviderConfig } from '@latchkey/js/admin';
import { oauthProviderPresets } from '@latchkey/protocol';
import {
  BusyButton,
  Form,
  FormAlert,
  FormField,
  FormInputField,
  PasswordInput,
  providerName,
  useFormAction,
} from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { CopyField } from '../../ui/copy-button.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { Badge, Section } from '../../ui/page.js';
import { refusalOf } from '../../ui/refusals.js';

/** The presets of the service (the protocol's list), with the names their sign-in buttons show. */
const presetProviders: Record<string, string> = Object.fromEntries(
  oauthProviderPresets.map((id) => [id, providerName({ id })]),
);

const otherProvider = 'oidc';
const isPreset = (id: string) => Object.hasOwn(presetProviders, id);

export function OAuthProviders({ project }: { project: AdminProject }) {
  const providers = project.config.oauthProviders;
  const columns: ColumnDef<OAuthProviderConfig, unknown>[] = [
    {
      id: 'name',
      header: 'Provider',
      cell: ({ row }) => (
        <span>
          {providerName(row.original)}
          {isPreset(row.original.id) ? null : <span className="ld-muted"> (OpenID Connect)</span>}
        </span>
      ),
    },
    {
      id: 'keys',
      header: 'Keys',
      cell: ({ row }) =>
        row.original.type === 'shared' ? <Badge tone="warning">Shared (development)</Badge> : <Badge>Own keys</Badge>,
    },
    {
      id: 'enabled',
      header: 'State',
      cell: ({ row }) => (row.original.enabled ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>),
    },
    {
      id: 'actions',
      header: () => <span className="ld-visually-hidden">Actions</span>,
      cell: ({ row }) => (
        <div className="ld-row-actions">
          <FormDialog
            trigger={
              <>
                Edit<span className="ld-visually-hidden"> {providerName(row.original)}</span>
              </>
            }
            title={`Edit ${providerName(row.original)}`}
            variant="secondary"
          >
            {(close) => <ProviderForm providers={providers} editing={row.original} onDone={close} />}
          </FormDialog>
          <RemoveProvider provider={row.original} />
        </div>
      ),
    },
  ];
  return (
    <Section
      title="OAuth providers"
      description="Sign-in with another account. Shared keys work in development only; production needs your own OAuth app."
      actions={
        <FormDialog trigger="Add provider" title="Add an OAuth provider">
          {(close) => <ProviderForm providers={providers} onDone={close} />}
        </FormDialog>
      }
    >
      <DataTable
        caption="OAuth providers"
        columns={columns}
        rows={providers}
        rowId={(provider) => provider.id}
        empty={{ title: 'No OAuth providers', description: 'Add GitHub, Google or your own OpenID Connect provider.' }}
      />
    </Section>
  );
}

function RemoveProvider({ provider }: { provider: OAuthProviderConfig }) {
  const { adminApp } = useProject();
  const name = providerName(provider);
  return (
    <ConfirmButton
      title={`Remove ${name}?`}
      description={`Users can no longer sign in with ${name}; accounts connected to it keep their other sign-in methods.`}
      confirmLabel="Remove provider"
      aria-label={`Remove ${name}`}
      onConfirm={async () => {
        const { config } = await adminApp.getProject();
        await adminApp.updateProject({
          config: { oauthProviders: config.oauthProviders.filter((item) => item.id !== provider.id) },
        });
      }}
    >
      Remove
    </ConfirmButton>
  );
}

type Field = 'provider' | 'slug' | 'issuer' | 'displayName' | 'clientId' | 'clientSecret' | 'tenant';
const fields: Field[] = ['provider', 'slug', 'issuer', 'displayName', 'clientId', 'clientSecret', 'tenant'];

const slugPattern = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** An issuer URL: https, or http on a loopback address (a local identity provider). */
function issuerProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the issuer’s URL, e.g. https://sso.example.com/realms/staff.';
  }
  const loopback = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/.test(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return null;
  return 'Use an https:// URL (http:// only for a provider on localhost).';
}

function ProviderForm({
  providers,
  editing,
  onDone,
}: {
  providers: readonly OAuthProviderConfig[];
  editing?: OAuthProviderConfig;
  onDone: () => void;
}) {
  const { adminApp } = useProject();
  const firstFree = Object.keys(presetProviders).find((id) => !providers.some((p) => p.id === id)) ?? otherProvider;
  const [choice, setChoice] = useState(editing ? (isPreset(editing.id) ? editing.id : otherProvider) : firstFree);
  const [slug, setSlug] = useState(editing && !isPreset(editing.id) ? editing.id : '');
  const [issuer, setIssuer] = useState(editing?.issuer ?? '');
  const [displayName, setDisplayName] = useState(editing?.displayName ?? '');
  const [type, setType] = useState<'shared' | 'standard'>(editing?.type ?? 'standard');
  const [clientId, setClientId] = useState(editing?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [tenant, setTenant] = useState(editing?.microsoftTenantId ?? '');
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const form = useFormAction(fields);

  const generic = choice === otherProvider;
  const id = generic ? slug.trim() : choice;
  const keysType = generic ? 'standard' : type;
  // A secret is needed unless one is stored for this provider and its client id stays.
  const secretStored = editing?.type === 'standard' && editing.id === id && editing.clientId === clientId.trim();
  const callbackUrl = id && slugPattern.test(id) ? adminApp.oauthCallbackUrl(id) : null;

  const check = () => {
    const errors: Partial<Record<Field, string>> = {};
    if (!editing && !generic && providers.some((p) => p.id === choice)) {
      errors.provider = `${presetProviders[choice]} is already configured: edit it instead.`;
    }
    if (generic) {
      if (!slugPattern.test(slug.trim())) {
        errors.slug = 'Use lowercase letters, digits and dashes (up to 40), e.g. corp-sso.';
      } else if (isPreset(slug.trim())) {
        errors.slug = 'This is the id of a preset: choose it in the list instead.';
      } else if (slug.trim() !== editing?.id && providers.some((p) => p.id === slug.trim())) {
        errors.slug = 'Another provider has this id.';
      }
      const problem = issuerProblem(issuer.trim());
      if (problem) errors.issuer = problem;
      if (!displayName.trim()) errors.displayName = 'Enter the name its button shows, e.g. Corp SSO.';
      else if (displayName.trim().length > 64) errors.displayName = 'Use at most 64 characters.';
    }
    if (keysType === 'standard') {
      if (!clientId.trim()) errors.clientId = 'Enter the client id of your OAuth app.';
      if (!clientSecret && !secretStored) errors.clientSecret = 'Enter the client secret of your OAuth app.';
    }
    if (choice === 'microsoft' && tenant.trim() && !/^[A-Za-z0-9.-]{1,128}$/.test(tenant.trim())) {
      errors.tenant = 'Enter a tenant id or domain, or leave it empty for common.';
    }
    return errors;
  };

  const entry = (): OAuthProviderConfig => {
    const provider: OAuthProviderConfig = { id, enabled, type: keysType };
    if (keysType === 'standard') {
      provider.clientId = clientId.trim();
      if (clientSecret) provider.clientSecret = clientSecret;
    }
    if (generic) {
      provider.issuer = issuer.trim();
      provider.displayName = displayName.trim();
    }
    if (choice === 'microsoft' && tenant.trim()) provider.microsoftTenantId = tenant.trim();
    if (choice === 'facebook' && editing?.facebookConfigId) provider.facebookConfigId = editing.facebookConfigId;
    return provider;
  };

  return (
    <Form
      state={form}
      className="ld-form"
      onSubmit={() =>
        form.submit({
          check,
          work: async () => {
            const { config } = await adminApp.getProject();
            const others = config.oauthProviders.filter((p) => p.id !== editing?.id && p.id !== id);
            // Keep the provider's place in the list when editing it.
            const at = editing ? config.oauthProviders.findIndex((p) => p.id === editing.id) : -1;
            const list = [...others];
            list.splice(at < 0 ? list.length : at, 0, entry());
            await adminApp.updateProject({ config: { oauthProviders: list } });
            onDone();
          },
          refusal: (error) => {
            return refusalOf(error, {
              issuer: generic ? 'issuer' : 'provider',
              client_secret: 'clientSecret',
              client_id: 'clientId',
              display_name: 'displayName',
              microsoft_tenant_id: 'tenant',
            } as const);
          },
        })
      }
    >
      {editing ? null : (
        <FormField name="provider" label="Provider">
          {(control) => (
            <select
              {...control}
              className="lk-input"
              value={choice}
              onChange={(event) => {
                setChoice(event.target.value);
                form.edited('provider');
              }}
            >
              {Object.entries(presetProviders).map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
              <option value={otherProvider}>Other (OpenID Connect)</option>
            </select>
          )}
        </FormField>
      )}
      {generic ? (
        <>
          <TextField
            field="slug"
            label="Provider id"
            hint="Lowercase letters, digits and dashes; part of the callback URL."
            value={slug}
            onValueChange={setSlug}
            readOnly={Boolean(editing)}
          />
          <TextField
            field="issuer"
            label="Issuer URL"
            hint="Its /.well-known/openid-configuration is read from here."
            inputMode="url"
            value={issuer}
            onValueChange={setIssuer}
          />
          <TextField field="displayName" label="Button name" value={displayName} onValueChange={setDisplayName} />
        </>
      ) : (
        <fieldset className="ld-fieldset">
          <legend className="lk-label">Keys</legend>
          <label className="ld-radio">
            <input
              type="radio"
              name="keys"
              value="shared"
              checked={type === 'shared'}
              onChange={() => setType('shared')}
            />
            Shared development keys (sign-in through the service’s stand-in; not in production)
          </label>
          <label className="ld-radio">
            <input
              type="radio"
              name="keys"
              value="standard"
              checked={type === 'standard'}
              onChange={() => setType('standard')}
            />
            My own OAuth app (client id and secret)
          </label>
        </fieldset>
      )}
      {keysType === 'standard' ? (
        <>
          {callbackUrl ? <CopyField label="Callback URL" value={callbackUrl} /> : null}
          <TextField
            field="clientId"
            label="Client id"
            value={clientId}
            onValueChange={setClientId}
            spellCheck={false}
          />
          <FormInputField
            field="clientSecret"
            label="Client secret"
            hint={secretStored ? 'Leave empty to keep the stored secret.' : undefined}
            input={PasswordInput}
            value={clientSecret}
            onValueChange={setClientSecret}
            autoComplete="new-password"
          />
          {choice === 'microsoft' ? (
            <TextField
              field="tenant"
              label="Microsoft tenant (optional)"
              hint="A tenant id or domain; empty for common."
              value={tenant}
              onValueChange={setTenant}
            />
          ) : null}
        </>
      ) : null}
      <label className="ld-checkbox">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Show this provider on the sign-in page
      </label>
      <FormAlert />
      <BusyButton block={false}>{editing ? 'Save provider' : 'Add provider'}</BusyButton>
    </Form>
  );
}
