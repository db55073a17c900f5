'use client';
/** `OAuthError`: the app's error page (`urls.error`), where the service sends a failed OAuth flow. */
import { forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { oauthLabels } from './oauth-labels.js';

/**
 * Props of `OAuthError`: the error (default: the page's `errorCode` and
 * `message` query parameters), its words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <OAuthError labels={{ oauthAccessDeniedTitle: 'You cancelled' }} />
 * ```
 */
export interface OAuthErrorProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The known error code; defaults to the page's `errorCode`. */
  errorCode?: string | null;
  /** The service's message; defaults to the page's `message`. */
  message?: string | null;
}

/** Title and explanation of the common codes, as label keys. */
const explained: Record<string, [keyof typeof oauthLabels, keyof typeof oauthLabels]> = {
  OAUTH_PROVIDER_ACCESS_DENIED: ['oauthAccessDeniedTitle', 'oauthAccessDeniedText'],
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: ['oauthEmailInUseTitle', 'oauthEmailInUseText'],
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: ['oauthAccountInUseTitle', 'oauthAccountInUseText'],
  OUTER_OAUTH_TIMEOUT: ['oauthTimeoutTitle', 'oauthTimeoutText'],
  SIGN_UP_NOT_ENABLED: ['oauthSignUpClosedTitle', 'oauthSignUpClosedText'],
};

/**
 * A finished card for a flow that failed: a title and an explanation for
 * the common codes (cancelled at the provider, an e-mail or provider account
 * that belongs to someone else, a flow that took too long, sign-up closed),
 * the service's message as plain text for other codes, the code (which
 * breaks at its underscores on a narrow screen), and buttons back to
 * sign-in and home. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/error (the Handler does this for you)
 * <LatchkeyProvider app={app}><OAuthError /></LatchkeyProvider>
 * ```
 */
export const OAuthError = forwardRef<HTMLDivElement, OAuthErrorProps>(function OAuthError(
  { errorCode, message, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, oauthLabels);
  const query = typeof window === 'undefined' ? new URLSearchParams() : new URLSearchParams(window.location.search);
  const code = errorCode === undefined ? query.get('errorCode') : errorCode;
  const said = message === undefined ? query.get('message') : message;
  const known = code ? explained[code] : undefined;
  const [titleKey, textKey] = known ?? ['oauthErrorTitle', 'oauthErrorText'];
  return (
    <TextContext.Provider value={text}>
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="alert" size={22} />}
        title={words[titleKey] as string}
        subtitle={words[textKey] as string}
      >
        {/* A code the page explains is said once, in its words; another one's message follows the general text. */}
        {said && !known ? <p className="lk-oauth-error-message">{said}</p> : null}
        {code ? <p className="lk-oauth-error-code">{breakable(words.oauthErrorCode({ code }))}</p> : null}
        <div className="lk-actions">
          <a className="lk-button lk-button-primary lk-button-block" href={app.urls.signIn}>
            {words.backToSignIn}
          </a>
          <a className="lk-button lk-button-secondary lk-button-block" href={app.urls.home}>
            {words.goHome}
          </a>
        </div>
      </AuthCard>
    </TextContext.Provider>
  );
});

/** `text` with a line-break opportunity after each underscore, so that a long code breaks between its words. */
function breakable(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const part of text.split(/(?<=_)/)) {
    if (at > 0) nodes.push(<wbr key={at} />);
    nodes.push(part);
    at += part.length;
  }
  return nodes;
}
