/** `SignOut`: signs the user out on arrival, then goes to the after-sign-out page. */
import { useEffect, useRef, useState } from 'react';
import { AuthCard } from '../internal/auth-card.js';
import { errorText } from '../internal/error-text.js';
import type { LatchkeyMessages } from '../messages.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';

/**
 * Props of `SignOut`.
 *
 * @example
 * ```tsx
 * <SignOut messages={{ REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 'You were already signed out.' }} />
 * ```
 */
export interface SignOutProps {
  /** Rewording of known errors. */
  messages?: LatchkeyMessages;
}

/**
 * The sign-out page: shows "Signing out…", signs the current user out (if
 * any) and redirects to the app's after-sign-out URL.
 *
 * @example
 * ```tsx
 * // at /handler/sign-out (the Handler does this for you)
 * <LatchkeyProvider app={app}><SignOut /></LatchkeyProvider>
 * ```
 */
export function SignOut({ messages }: SignOutProps) {
  const app = useApp();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the sign-out on "Try again"
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      const user = await app.getUser({ or: 'return-null' });
      if (user) await user.signOut({ redirectUrl: app.urls.afterSignOut });
      else await app.redirectToAfterSignOut();
    })().catch((caught: unknown) => {
      started.current = false;
      setError(errorText(caught, messages));
    });
  }, [app, messages, attempt]);

  if (error) {
    return (
      <AuthCard
        icon="door"
        title="Could not sign you out"
        subtitle={
          <span className="lk-error-text" role="alert">
            {error}
          </span>
        }
      >
        <div className="lk-actions">
          <button
            type="button"
            className="lk-button lk-button-primary"
            onClick={() => {
              setError(null);
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </button>
          <a className="lk-button lk-button-secondary" href={app.urls.home}>
            Go home
          </a>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard icon="door" title="Signing out…" subtitle="You will be redirected in a moment.">
      <div className="lk-status" role="status">
        <Spinner />
        <span>Ending your session</span>
      </div>
    </AuthCard>
  );
}
