/**
 * `Boundary`: Suspense plus an error boundary, around a page or a part of
 * one. A load that fails shows `ErrorState` with "Try again", which
 * invalidates nothing itself: `onRetry` does (usually `app.invalidate(query)`).
 */
import { Component, type ErrorInfo, type ReactNode, Suspense } from 'react';
import { ErrorState, Loading } from './states.js';

interface BoundaryProps {
  children: ReactNode;
  /** Shown while loading (default `Loading`). */
  fallback?: ReactNode;
  /** Runs before the boundary renders its children again. */
  onRetry?: () => unknown;
  /** A change of this value clears a shown error (e.g. the path). */
  resetKey?: unknown;
}

export function Boundary({ children, fallback, onRetry, resetKey }: BoundaryProps) {
  return (
    <ErrorBoundary onRetry={onRetry} resetKey={resetKey}>
      <Suspense fallback={fallback ?? <Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

interface ErrorBoundaryState {
  error: unknown;
  resetKey: unknown;
}

class ErrorBoundary extends Component<Omit<BoundaryProps, 'fallback'>, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('dashboard: a part of the page failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <ErrorState
        error={this.state.error}
        onRetry={async () => {
          await this.props.onRetry?.();
          this.setState({ error: null });
        }}
      />
    );
  }
}
