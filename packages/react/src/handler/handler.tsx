'use client';
/** `Handler`: serves the Latchkey pages under the handler base path, with no router. */
import type { ClientApp } from '@latchkey/js';
import type { ReactNode } from 'react';
import { AccountSettings } from '../account-settings/account-settings.js';
import { SignIn, SignUp } from '../credential/credential-pages.js';
import { EmailVerification } from '../email/email-verification.js';
import { ForgotPassword } from '../email/forgot-password.js';
import { PasswordReset } from '../email/password-reset.js';
import { TextContext, useText } from '../internal/text.js';
import { useLocationPath } from '../internal/use-location-path.js';
import type { LatchkeyTranslation } from '../labels.js';
import { MagicLinkCallback } from '../magic-link/magic-link-callback.js';
import { OAuthCallback } from '../oauth/oauth-callback.js';
import { OAuthError } from '../oauth/oauth-error.js';
import { LatchkeyProvider, useOptionalLatchkeyContext } from '../provider.js';
import { TeamInvitation } from '../teams/team-invitation.js';
import { handlerPageOf } from './handler-page.js';
import { NotFound } from './not-found.js';
import { SignOut } from './sign-out.js';

/**
 * Props of `Handler`.
 *
 * @example
 * ```tsx
 * <Handler basePath="/auth" messages={{ EMAIL_PASSWORD_MISMATCH: 'Try again.' }} />
 * ```
 */
export interface HandlerProps extends LatchkeyTranslation {
  /** The app; defaults to the one of the nearest `LatchkeyProvider`. */
  app?: ClientApp;
  /** Base path of the pages; defaults to `app.urls.handler` (`/handler`). */
  basePath?: string;
  /**
   * The request's path, for rendering on a server (which has no
   * `window.location`): the page it names is the one in the server's HTML.
   * In the browser the location is read as ever.
   */
  pathname?: string;
}

/**
 * Renders the page that `window.location.pathname` names under the handler
 * base path: `sign-in`, `sign-up`, `sign-out`, `forgot-password`, `password-reset`,
 * `email-verification`, `magic-link-callback`, `oauth-callback`, `error`, `account-settings` or
 * `team-invitation`; anything else gets a
 * "Page not found" card with a link home. Mount it on the handler route of
 * your router (or for every path under it). `labels` and `messages` apply to
 * every page it serves.
 *
 * @example
 * ```tsx
 * // with any router: route "/handler/*" to
 * <Handler />
 * // or without a provider around it
 * <Handler app={app} basePath="/auth" />
 * ```
 */
export function Handler({ app, basePath, pathname, labels, messages }: HandlerProps) {
  const context = useOptionalLatchkeyContext();
  const page = <HandlerPage basePath={basePath} pathname={pathname} labels={labels} messages={messages} />;
  if (app && app !== context?.app) {
    return (
      <LatchkeyProvider app={app} theme={context?.theme} projectName={context?.projectName} logo={context?.logo}>
        {page}
      </LatchkeyProvider>
    );
  }
  if (!context) throw new Error('<Handler> needs an `app` prop or a <LatchkeyProvider> around it.');
  return page;
}

function HandlerPage({ basePath, pathname: serverPath, labels, messages }: Omit<HandlerProps, 'app'>): ReactNode {
  const context = useOptionalLatchkeyContext();
  const text = useText({ labels, messages });
  const pathname = useLocationPath(serverPath);
  return (
    <TextContext.Provider value={text}>{pageAt(pathname, basePath ?? context?.app.urls.handler)}</TextContext.Provider>
  );
}

function pageAt(pathname: string, basePath = '/handler'): ReactNode {
  switch (handlerPageOf(pathname, basePath)) {
    case 'sign-in':
      return <SignIn />;
    case 'sign-up':
      return <SignUp />;
    case 'sign-out':
      return <SignOut />;
    case 'forgot-password':
      return <ForgotPassword />;
    case 'password-reset':
      return <PasswordReset />;
    case 'email-verification':
      return <EmailVerification />;
    case 'magic-link-callback':
      return <MagicLinkCallback />;
    case 'oauth-callback':
      return <OAuthCallback />;
    case 'error':
      return <OAuthError />;
    case 'account-settings':
      return <AccountSettings />;
    case 'team-invitation':
      return <TeamInvitation />;
    default:
      return <NotFound />;
  }
}
