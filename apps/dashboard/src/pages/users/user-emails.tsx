/** A user's e-mail addresses (contact channels): the list with its badges; add, mark verified, make primary, remove. */
import { type ServerContactChannel, type ServerUser, userContactChannelsQuery } from '@latchkey/js/admin';
import { BusyButton, errorText, Form, FormAlert, FormInputField, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { type ColumnDef, DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { Badge, Section } from '../../ui/page.js';
import { SwitchField } from '../../ui/switch.js';

export function UserEmailsSection({ user }: { user: ServerUser }) {
  const { adminApp } = useProject();
  const query = userContactChannelsQuery(user.id);
  const channels = useQuery(query, { suspend: false });
  const columns: ColumnDef<ServerContactChannel>[] = [
    {
      id: 'address',
      header: 'Address',
      cell: ({ row }) => <span className="ld-user-email">{row.original.value}</span>,
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <ChannelBadges channel={row.original} /> },
    { id: 'actions', header: 'Actions', cell: ({ row }) => <ChannelActions channel={row.original} /> },
  ];
  return (
    <Section
      title="E-mails"
      id="emails"
      description="The user's addresses. The primary one is the user's e-mail; an address used for sign-in takes a password or a magic link."
      actions={
        <FormDialog trigger="Add e-mail" title="Add an e-mail address" variant="secondary">
          {(close) => <AddEmailForm user={user} onDone={close} />}
        </FormDialog>
      }
    >
      <DataTable
        caption={`E-mail addresses of ${user.displayName ?? user.primaryEmail ?? 'the user'}`}
        columns={columns}
        rows={channels.data}
        error={channels.status === 'failed' ? channels.error : undefined}
        onRetry={() => adminApp.invalidate(query)}
        rowId={(channel) => channel.id}
        empty={{ title: 'No e-mail addresses', description: 'This user has no e-mail address yet.' }}
      />
    </Section>
  );
}

function ChannelBadges({ channel }: { channel: ServerContactChannel }) {
  return (
    <span className="ld-user-badges">
      {channel.isVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Unverified</Badge>}
      {channel.isPrimary ? <Badge>Primary</Badge> : null}
      {channel.usedForAuth ? <Badge>Used for sign-in</Badge> : null}
    </span>
  );
}

/** The row's buttons; a refusal shows under them. */
function ChannelActions({ channel }: { channel: ServerContactChannel }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (what: string, action: () => Promise<unknown>) => async () => {
    setBusy(what);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(errorText(failure, undefined));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="ld-user-row-actions">
      <div className="ld-actions">
        {channel.isVerified ? null : (
          <BusyButton
            type="button"
            variant="secondary"
            block={false}
            className="ld-button-small"
            busy={busy === 'verify'}
            disabled={busy !== null}
            aria-label={`Mark verified: ${channel.value}`}
            onClick={run('verify', () => channel.update({ isVerified: true }))}
          >
            Mark verified
          </BusyButton>
        )}
        {channel.isPrimary ? null : (
          <BusyButton
            type="button"
            variant="secondary"
            block={false}
            className="ld-button-small"
            busy={busy === 'primary'}
            disabled={busy !== null}
            aria-label={`Make primary: ${channel.value}`}
            onClick={run('primary', () => channel.update({ isPrimary: true }))}
          >
            Make primary
          </BusyButton>
        )}
        <ConfirmButton
          title={`Remove ${channel.value}?`}
          description={
            channel.isPrimary
              ? 'This is the primary e-mail: the user will have no primary e-mail until another address is made primary.'
              : 'The user can no longer sign in or receive mail at this address.'
          }
          confirmLabel="Remove address"
          aria-label={`Remove ${channel.value}`}
          disabled={busy !== null}
          onConfirm={() => channel.delete()}
        >
          Remove
        </ConfirmButton>
      </div>
      <div role="alert">{error ? <p className="lk-field-error">{error}</p> : null}</div>
    </div>
  );
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function AddEmailForm({ user, onDone }: { user: ServerUser; onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [usedForAuth, setUsedForAuth] = useState(false);
  const [verified, setVerified] = useState(false);
  const [primary, setPrimary] = useState(false);
  const form = useFormAction(['email'] as const);
  const submit = () =>
    form.submit({
      check: () => ({ email: emailShape.test(email.trim()) ? undefined : 'Enter an e-mail address.' }),
      work: async () => {
        await user.createContactChannel({
          type: 'email',
          value: email.trim(),
          usedForAuth,
          isVerified: verified,
          isPrimary: primary,
        });
        onDone();
      },
      refusal: (error) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (
          code === 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE' ||
          code === 'USER_EMAIL_ALREADY_EXISTS' ||
          code === 'SCHEMA_ERROR'
        ) {
          return { email: errorText(error, undefined) };
        }
        return null;
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <FormInputField label="E-mail address" value={email} onValueChange={setEmail} />
      <SwitchField
        label="Used for sign-in"
        hint="Signs in with a password or a magic link (one user of the project at most per address)."
        checked={usedForAuth}
        onCheckedChange={setUsedForAuth}
      />
      <SwitchField
        label="Verified"
        hint="Mark it verified now, without a mail."
        checked={verified}
        onCheckedChange={setVerified}
      />
      <SwitchField label="Primary" hint="Make it the user's e-mail." checked={primary} onCheckedChange={setPrimary} />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Add address</BusyButton>
      </div>
    </Form>
  );
}
