'use client';
/** `SignOut`: signs the user out on arrival, then goes to the after-sign-out page. */
import { forwardRef, type HTMLAttributes, useEffect, useRef, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { handlerLabels } from './handler-labels.js';

/**
 * Props of `SignOut`: its words and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <SignOut messages={{ REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 'You were already signed out.' }} />
 * ```
 */
export interface SignOutProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {}

interface Failure {
  error: unknown;
}

/**
 * The sign-out page: shows "Signing out…", signs the current user out (if
 * any) and redirects to the app's after-sign-out URL; on failure it says why
 * and offers to try again. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/sign-out (the Handler does this for you)
 * <LatchkeyProvider app={app}><SignOut /></LatchkeyProvider>
 * ```
 */
export const SignOut = forwardRef<HTMLDivElement, SignOutProps>(function SignOut({ labels, messages, ...rest }, ref) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, handlerLabels);
  const started = useRef(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the sign-out on "Try again"
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      const user = await app.getUser({ or: 'return-null' });
      if (user) await user.signOut({ redirectUrl: app.urls.afterSignOut });
      else await app.redirectToAfterSignOut();
    })().catch((error: unknown) => {
      started.current = false;
      setFailure({ error });
    });
  }, [app, attempt]);

  const door = <Icon name="door" size={22} />;
  const page = failure ? (
    <AuthCard
      {...rest}
      ref={ref}
      icon={door}
      title={words.signOutFailedTitle}
      subtitle={
        <span className="lk-error-text" role="alert">
          {errorText(failure.error, text.messages)}
        </span>
      }
    >
      <div className="lk-actions">
        <button
          type="button"
          className="lk-button lk-button-primary"
          onClick={() => {
            setFailure(null);
            setAttempt((n) => n + 1);
          }}
        >
          {words.tryAgain}
        </button>
        <a className="lk-button lk-button-secondary" href={app.urls.home}>
          {words.goHome}
        </a>
      </div>
    </AuthCard>
  ) : (
    <AuthCard {...rest} ref={ref} icon={door} title={words.signOutTitle} subtitle={words.signOutSubtitle}>
      <div className="lk-status" role="status">
        <Spinner />
        <span>{words.signOutStatus}</span>
      </div>
    </AuthCard>
  );
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
