/** What a list or a page shows while loading, when empty, and when its data failed to load. */
import { errorText, Spinner } from '@latchkey/react';
import type { ReactNode } from 'react';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="ld-state" role="status">
      <Spinner /> <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="ld-state ld-empty">
      <p className="ld-state-title">{title}</p>
      {children ? <p className="ld-muted">{children}</p> : null}
      {action}
    </div>
  );
}

/** A failed load: what went wrong, in the SDK's words, and a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title = 'This could not be loaded',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <div className="ld-state ld-error" role="alert">
      <p className="ld-state-title">{title}</p>
      <p className="ld-muted">{errorText(error, undefined)}</p>
      {onRetry ? (
        <button type="button" className="lk-button lk-button-secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
