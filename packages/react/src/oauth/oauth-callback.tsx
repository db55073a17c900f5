'use client';
/** `OAuthCallback`: the page the service sends the browser back to after the provider (`?code=&state=`). */
import { multiFactorAttempt } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, type ReactNode, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import { useOnce } from '../internal/use-once.js';
import type { LatchkeyTranslation } from '../labels.js';
import { Checking } from '../link-code/link-code-page.js';
import { SecondFactorStep } from '../mfa/second-factor-step.js';
import { useApp } from '../provider.js';
import { oauthLabels } from './oauth-labels.js';

/**
 * Props of `OAuthCallback`: its words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <OAuthCallback labels={{ oauthCallbackSigningIn: 'One moment…' }} />
 * ```
 */
export interface OAuthCallbackProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {}

/**
 * Finishes an OAuth sign-in (or account connection) as soon as the page
 * opens, once, also under StrictMode (a code works once): the SDK stores the
 * session and goes on to where the flow asked to end. Meanwhile a spinner
 * card; if it fails, a card saying so with the error and the way back to
 * sign-in. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/oauth-callback (the Handler does this for you)
 * <LatchkeyProvider app={app}><OAuthCallback /></LatchkeyProvider>
 * ```
 */
export const OAuthCallback = forwardRef<HTMLDivElement, OAuthCallbackProps>(function OAuthCallback(
  { labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, oauthLabels);
  // The call takes code and state off the address, so the key (the flow's state) is read once, at mount.
  const [key] = useState(() => `oauth-callback:${stateFromUrl()}`);
  const [state] = useOnce(key, () => app.callOAuthCallback());
  let page: ReactNode;
  // The provider's account was accepted and the service asks for the second factor (or its set-up).
  const attempt = state.status === 'failed' ? multiFactorAttempt(state.error) : null;
  if (attempt) {
    page = <SecondFactorStep {...rest} ref={ref} attempt={attempt} catalogueWording />;
  } else if (state.status === 'failed' || state.value === false) {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="alert" size={22} />}
        title={words.oauthCallbackFailedTitle}
        subtitle={
          <span className="lk-error-text" role="alert">
            {state.status === 'failed' ? errorText(state.error, text.messages) : words.oauthErrorText}
          </span>
        }
      >
        <div className="lk-actions">
          <a className="lk-button lk-button-primary lk-button-block" href={app.urls.signIn}>
            {words.backToSignIn}
          </a>
        </div>
      </AuthCard>
    );
  } else {
    // Pending, and also done: the SDK is taking the browser to the next page.
    page = (
      <AuthCard {...rest} ref={ref} icon={<Icon name="lock" size={22} />} title={words.oauthCallbackSigningIn}>
        <Checking>{words.oauthCallbackSigningIn}</Checking>
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});

/** The `state` query parameter of the page, or `''`. */
function stateFromUrl(): string {
  return typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('state') ?? '');
}
