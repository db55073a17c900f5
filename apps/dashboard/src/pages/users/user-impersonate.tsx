/**
 * Impersonation: a session for the user marked `is_impersonation` (the
 * audit log records `impersonation.started`), whose tokens are shown once.
 * The project's handler pages take no tokens from outside, so the dialog is
 * the feature: the administrator hands the tokens to the project's app
 * (a `ClientApp` with `tokenStore: { accessToken, refreshToken }`).
 */
import { adminProjectQuery, type ServerUser, type SessionTokens } from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { CopyField } from '../../ui/copy-button.js';
import { FormDialog } from '../../ui/dialog.js';

export function ImpersonateButton({ user }: { user: ServerUser }) {
  return (
    <FormDialog trigger="Impersonate" title="Impersonate this user" variant="secondary" wide>
      {() => <ImpersonateBody user={user} />}
    </FormDialog>
  );
}

function ImpersonateBody({ user }: { user: ServerUser }) {
  const [tokens, setTokens] = useState<SessionTokens | null>(null);
  const project = useQuery(adminProjectQuery, { suspend: false });
  const form = useFormAction(['start'] as const);
  const appDomain = project.data?.config.domains[0]?.domain ?? null;
  const name = user.displayName ?? user.primaryEmail ?? 'this user';

  if (tokens) {
    return (
      <div className="ld-form">
        <p role="status">
          An impersonation session for {name} has started. These tokens are shown once: copy them now.
        </p>
        <CopyField label="Refresh token" value={tokens.refreshToken} />
        <CopyField label="Access token" value={tokens.accessToken} />
        <p className="ld-muted">
          To act as the user, give both tokens to the project's app, e.g.{' '}
          <code className="ld-mono">{'new ClientApp({ …, tokenStore: { accessToken, refreshToken } })'}</code>
          {appDomain ? (
            <>
              {' '}
              in the app at <span className="ld-mono">{appDomain}</span>
            </>
          ) : null}
          . The session is listed under Sessions as an impersonation; revoke it there when you are done.
        </p>
      </div>
    );
  }

  return (
    <Form
      state={form}
      className="ld-form"
      onSubmit={() =>
        form.submit({
          work: async () => {
            setTokens(await user.createSession({ isImpersonation: true }));
          },
        })
      }
    >
      <p className="ld-muted">
        This starts a session for {name}, marked as an impersonation and recorded in the audit log. You get its tokens
        once, to sign in to the project's app as them.
      </p>
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false}>Start impersonation</BusyButton>
      </div>
    </Form>
  );
}
