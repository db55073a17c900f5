'use client';
/** `OAuthButtons`: "Continue with <provider>" for each OAuth provider the project enables. */
import type { EnabledOAuthProvider } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, useState } from 'react';
import { FormAlert } from '../form/alert.js';
import { errorText } from '../internal/error-text.js';
import { cx } from '../internal/root-props.js';
import { useLabels, useMessages } from '../internal/text.js';
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
 * buttons. The sign-in and sign-up pages render it above their forms.
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
  const start = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      await app.signInWithOAuth(id);
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
      <FormAlert message={error ? errorText(error, messages) : null} />
    </div>
  );
});
