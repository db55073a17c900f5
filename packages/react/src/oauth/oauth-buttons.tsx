'use client';
/** `OAuthButtons`: "Continue with <provider>" for each OAuth provider the project enables. */
import type { EnabledOAuthProvider } from '@latchkey/js';
import { isKnownErrorCode, messageFor } from '@latchkey/protocol';
import { forwardRef, type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { FormAlert } from '../form/alert.js';
import { errorText } from '../internal/error-text.js';
import { withReturnTo } from '../internal/return-to.js';
import { cx } from '../internal/root-props.js';
import { useLabels, useMessages } from '../internal/text.js';
import type { LabelsOf } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { oauthLabels } from './oauth-labels.js';
import { ProviderMark, providerName } from './provider-marks.js';

/**
 * Props of `OAuthButtons`: the providers (the sign-in pages pass the
 * project's), and any `<div>` prop for the list element.
 *
 * @example
 * ```tsx
 * <OAuthButtons providers={[{ id: 'github' }, { id: 'corp', displayName: 'Corp SSO' }]} />
 * ```
 */
export interface OAuthButtonsProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  providers: readonly EnabledOAuthProvider[];
}

/**
 * One button per provider, each with its brand mark, that starts
 * `app.signInWithOAuth(id)`. The clicked button shows it is busy while the
 * page goes to the provider (the others wait); a refusal is shown under the
 * buttons. A flow that fails comes back to this page (`errorReturnTo`) and
 * is said here in one sentence: cancelled at the provider, or an e-mail an
 * account already signs in with (with a link to sign in to it, then connect
 * the provider in account settings). The sign-in and sign-up pages render it
 * above their forms.
 *
 * @example
 * ```tsx
 * const project = await app.getProject();
 * <OAuthButtons providers={project.config.oauthProviders} />
 * ```
 */
export const OAuthButtons = forwardRef<HTMLDivElement, OAuthButtonsProps>(function OAuthButtons(
  { providers, className, ...rest },
  ref,
) {
  const app = useApp();
  const labels = useLabels(oauthLabels);
  const messages = useMessages();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // A failed flow came back here: said once, then taken off the address (a reload does not say it again).
  const [returned, setReturned] = useState<ReactNode>(null);
  useEffect(() => {
    const code = takeReturnedError();
    if (!code) return;
    if (code === 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE') {
      const connect = withReturnTo(app.urls.signIn, `${app.urls.accountSettings}#connected-accounts`);
      setReturned(
        <>
          {labels.oauthEmailInUseNotice}{' '}
          <a className="lk-link" href={connect}>
            {labels.oauthEmailInUseSignIn}
          </a>
        </>,
      );
    } else {
      setReturned(returnedText(code, labels, messages));
    }
  }, [app, labels, messages]);
  const start = async (id: string) => {
    setBusy(id);
    setError(null);
    setReturned(null);
    try {
      await app.signInWithOAuth(id, { errorReturnTo: pageWithoutError() });
    } catch (thrown) {
      setError(thrown);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div {...rest} ref={ref} className={cx('lk-oauth-buttons', className)}>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className="lk-button lk-button-secondary lk-button-block lk-oauth-button"
          disabled={busy !== null}
          aria-busy={busy === provider.id || undefined}
          onClick={() => void start(provider.id)}
        >
          {busy === provider.id ? <Spinner /> : <ProviderMark id={provider.id} />}
          <span>
            {busy === provider.id
              ? labels.oauthRedirecting
              : labels.oauthContinueWith({ provider: providerName(provider) })}
          </span>
        </button>
      ))}
      <FormAlert message={error ? errorText(error, messages) : returned} />
    </div>
  );
});

/** The query parameters a failed flow comes back with (`errorCode`, `message`, `details`). */
const errorParams = ['errorCode', 'message', 'details'];

/** This page's address without a failed flow's parameters: where the next failure comes back to. */
function pageWithoutError(): string {
  const url = new URL(window.location.href);
  for (const name of errorParams) url.searchParams.delete(name);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The code a failed flow came back with, taken off the address; `null` when there is none. */
function takeReturnedError(): string | null {
  const code = new URLSearchParams(window.location.search).get('errorCode');
  if (!code) return null;
  window.history.replaceState(window.history.state, '', pageWithoutError());
  return code;
}

/** One sentence for a failed flow's code: the page's own words for the common ones, else the catalogue's. */
function returnedText(
  code: string,
  labels: Readonly<LabelsOf<typeof oauthLabels>>,
  messages: LatchkeyMessages | undefined,
): string {
  const own: Partial<Record<string, keyof typeof oauthLabels>> = {
    OAUTH_PROVIDER_ACCESS_DENIED: 'oauthCancelledNotice',
    OUTER_OAUTH_TIMEOUT: 'oauthTimeoutText',
    SIGN_UP_NOT_ENABLED: 'oauthSignUpClosedText',
  };
  const key = own[code];
  if (key) return labels[key] as string;
  const said = isKnownErrorCode(code) ? messageFor(code, undefined as never, messages) : code;
  return said === code ? (labels.oauthErrorText as string) : said;
}
