/** `SignIn` and `SignUp`: the credential pages, each a card around a `CredentialForm`. */
import type { ReactNode } from 'react';
import { AuthCard } from '../internal/auth-card.js';
import { currentReturnTo, withReturnTo } from '../internal/return-to.js';
import { useProjectName } from '../internal/use-project-name.js';
import type { LatchkeyMessages } from '../messages.js';
import { useLatchkeyContext } from '../provider.js';
import { CredentialForm } from './credential-form.js';

/**
 * Props of `SignIn` and `SignUp`.
 *
 * @example
 * ```tsx
 * <SignUp projectName="Acme" messages={{ USER_EMAIL_ALREADY_EXISTS: 'You already have an account: sign in.' }} />
 * ```
 */
export interface CredentialPageProps {
  /** Project name for the title; defaults to the provider's `projectName`, else the service's display name. */
  projectName?: string;
  /** Rewording of known errors and form messages, e.g. `{ EMAIL_PASSWORD_MISMATCH: '…' }`. */
  messages?: LatchkeyMessages;
  /** Stay on the page after success instead of redirecting. */
  noRedirect?: boolean;
  /** Called after the service accepted the credentials. */
  onSuccess?: (result: { email: string }) => void;
  className?: string;
}

/**
 * The sign-in page: e-mail and password, with a link to sign-up that keeps
 * `after_auth_return_to`. After success the SDK sends the user to
 * `after_auth_return_to` or the after-sign-in page.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app} projectName="Acme">
 *   <SignIn messages={{ EMAIL_PASSWORD_MISMATCH: 'That e-mail and password do not match.' }} />
 * </LatchkeyProvider>
 * ```
 */
export function SignIn(props: CredentialPageProps) {
  const { app } = useLatchkeyContext();
  return (
    <CredentialPage
      {...props}
      kind="sign-in"
      title={(name) => (name ? `Sign in to ${name}` : name === null ? 'Sign in to your account' : 'Sign in')}
      subtitle="Welcome back. Enter your e-mail and password to continue."
      footer={
        <>
          New here?{' '}
          <a className="lk-link" href={withReturnTo(app.urls.signUp, currentReturnTo())}>
            Create an account
          </a>
        </>
      }
    />
  );
}

/**
 * The sign-up page: e-mail and a new password, with a link to sign-in that
 * keeps `after_auth_return_to`. After success the SDK sends the new user to
 * `after_auth_return_to` or the after-sign-up page.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app}>
 *   <SignUp projectName="Acme" />
 * </LatchkeyProvider>
 * ```
 */
export function SignUp(props: CredentialPageProps) {
  const { app } = useLatchkeyContext();
  return (
    <CredentialPage
      {...props}
      kind="sign-up"
      title={(name) => (name ? `Sign up for ${name}` : name === null ? 'Create your account' : 'Sign up')}
      subtitle="Enter your e-mail and choose a password to get started."
      footer={
        <>
          Already have an account?{' '}
          <a className="lk-link" href={withReturnTo(app.urls.signIn, currentReturnTo())}>
            Sign in
          </a>
        </>
      }
    />
  );
}

interface PageSetup extends CredentialPageProps {
  kind: 'sign-in' | 'sign-up';
  /** The title for a project name (`undefined`: still loading; `null`: unknown). */
  title: (projectName: string | null | undefined) => string;
  subtitle: string;
  footer: ReactNode;
}

function CredentialPage({ kind, title, subtitle, footer, projectName, className, ...formOptions }: PageSetup) {
  const name = useProjectName(projectName);
  return (
    <AuthCard title={title(name)} subtitle={subtitle} footer={footer} className={className}>
      <CredentialForm kind={kind} {...formOptions} />
    </AuthCard>
  );
}
