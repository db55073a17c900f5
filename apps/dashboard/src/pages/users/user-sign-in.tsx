/**
 * How a user signs in: password (set a new one, or remove it), passkeys,
 * one-time codes, OAuth; and the OAuth accounts connected to them.
 */
import { type ServerUser, userConnectedAccountsQuery } from '@latchkey/js/admin';
import { passwordMaxLength, passwordMinLength } from '@latchkey/protocol';
import {
  BusyButton,
  errorText,
  Form,
  FormAlert,
  FormInputField,
  PasswordInput,
  providerName,
  useFormAction,
  useQuery,
} from '@latchkey/react';
import { useState } from 'react';
import { useProject } from '../../project.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { DataTable } from '../../ui/data-table.js';
import { FormDialog } from '../../ui/dialog.js';
import { Badge, DetailList, Section } from '../../ui/page.js';

const onOff = (on: boolean, yes = 'Enabled', no = 'Off') =>
  on ? <Badge tone="success">{yes}</Badge> : <Badge>{no}</Badge>;

function OAuthProviders({ user }: { user: ServerUser }) {
  if (user.oauthProviders.length === 0) return <span className="ld-muted">None</span>;
  return (
    <span className="ld-user-badges">
      {user.oauthProviders.map((provider) => (
        <Badge key={`${provider.id}:${provider.accountId}`}>{providerName(provider)}</Badge>
      ))}
    </span>
  );
}

export function SignInMethodsSection({ user }: { user: ServerUser }) {
  return (
    <Section
      title="Sign-in methods"
      id="sign-in-methods"
      actions={
        <>
          <FormDialog
            trigger={user.hasPassword ? 'Set a new password' : 'Set a password'}
            title={user.hasPassword ? 'Set a new password' : 'Set a password'}
            description="The user's sessions end: they sign in again with the new password."
            variant="secondary"
          >
            {(close) => <SetPasswordForm user={user} onDone={close} />}
          </FormDialog>
          {user.hasPassword ? (
            <ConfirmButton
              title="Remove the password?"
              description="The user can no longer sign in with a password; their other ways to sign in stay."
              confirmLabel="Remove password"
              onConfirm={() => user.update({ password: null })}
            >
              Remove password
            </ConfirmButton>
          ) : null}
        </>
      }
    >
      <DetailList
        items={[
          ['Password', onOff(user.hasPassword, 'Set', 'Not set')],
          ['Sign-in with the primary e-mail', onOff(user.primaryEmailAuthEnabled)],
          ['Passkeys', onOff(user.passkeyAuthEnabled)],
          ['One-time codes (TOTP)', onOff(user.otpAuthEnabled)],
          ['Multi-factor required', user.isMultiFactorRequired ? 'Yes' : 'No'],
          ['OAuth', <OAuthProviders key="oauth" user={user} />],
        ]}
      />
    </Section>
  );
}

const passwordRule = `${passwordMinLength} to ${passwordMaxLength} characters.`;

function SetPasswordForm({ user, onDone }: { user: ServerUser; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const form = useFormAction(['password'] as const);
  const submit = () =>
    form.submit({
      check: () => ({
        password:
          password.length < passwordMinLength
            ? `At least ${passwordMinLength} characters.`
            : password.length > passwordMaxLength
              ? `At most ${passwordMaxLength} characters.`
              : undefined,
      }),
      work: async () => {
        await user.update({ password });
        onDone();
      },
      refusal: (error) => {
        const code = (error as { code?: unknown } | null)?.code;
        return typeof code === 'string' && code.startsWith('PASSWORD_')
          ? { password: errorText(error, undefined) }
          : null;
      },
    });
  return (
    <Form state={form} onSubmit={submit} className="ld-form">
      <FormInputField
        input={PasswordInput}
        field="password"
        label="New password"
        hint={passwordRule}
        autoComplete="new-password"
        value={password}
        onValueChange={setPassword}
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Set password</BusyButton>
      </div>
    </Form>
  );
}

export function ConnectedAccountsSection({ user }: { user: ServerUser }) {
  const { adminApp } = useProject();
  const query = userConnectedAccountsQuery(user.id);
  const accounts = useQuery(query, { suspend: false });
  return (
    <Section title="Connected accounts" id="connected-accounts">
      <DataTable
        caption="Connected OAuth accounts"
        columns={[
          { id: 'provider', header: 'Provider', cell: ({ row }) => providerName(row.original) },
          {
            id: 'account',
            header: 'Account id',
            cell: ({ row }) => <span className="ld-mono">{row.original.accountId}</span>,
          },
          { id: 'email', header: 'E-mail at the provider', cell: ({ row }) => row.original.email ?? '—' },
        ]}
        rows={accounts.data}
        error={accounts.status === 'failed' ? accounts.error : undefined}
        onRetry={() => adminApp.invalidate(query)}
        rowId={(account) => `${account.id}:${account.accountId}`}
        empty={{ title: 'No connected accounts', description: 'The user has not signed in with an OAuth provider.' }}
      />
    </Section>
  );
}
