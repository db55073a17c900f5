/** The card for an e-mailed link that cannot be used: missing or unknown code, expired, used, or blocked. */
import { forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { errorText, knownErrorCodeOf } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { useLabels, useText } from '../internal/text.js';

/** Why a link cannot be used. */
export type LinkProblem = 'invalid' | 'expired' | 'used' | 'attempts';

/** The problem a `VERIFICATION_CODE_*` error (or a malformed code) means; `null` for any other failure. */
export function linkProblemOf(error: unknown): LinkProblem | null {
  switch (knownErrorCodeOf(error)) {
    case 'VERIFICATION_CODE_NOT_FOUND':
    case 'SCHEMA_ERROR':
      return 'invalid';
    case 'VERIFICATION_CODE_EXPIRED':
      return 'expired';
    case 'VERIFICATION_CODE_ALREADY_USED':
      return 'used';
    case 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED':
      return 'attempts';
    default:
      return null;
  }
}

export interface LinkProblemCardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  problem: LinkProblem;
  /** Replaces the standard explanation (e.g. a used verification link). */
  text?: ReactNode;
  /** The way on: usually a link asking for a new e-mail. */
  children: ReactNode;
}

/** A card titled after the problem, with its explanation and the caller's actions. */
export const LinkProblemCard = forwardRef<HTMLDivElement, LinkProblemCardProps>(function LinkProblemCard(
  { problem, text, children, ...rest },
  ref,
) {
  const labels = useLabels();
  const words = {
    invalid: [labels.linkInvalidTitle, labels.linkInvalidText],
    expired: [labels.linkExpiredTitle, labels.linkExpiredText],
    used: [labels.linkUsedTitle, labels.linkUsedText],
    attempts: [labels.linkAttemptsTitle, labels.linkAttemptsText],
  }[problem];
  return (
    <AuthCard {...rest} ref={ref} icon={<Icon name="alert" size={22} />} title={words[0]} subtitle={text ?? words[1]}>
      <div className="lk-actions">{children}</div>
    </AuthCard>
  );
});

export interface LinkFailedCardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'title'> {
  title: ReactNode;
  /** What went wrong (the network, the service), worded from the messages. */
  error: unknown;
  onRetry: () => void;
  /** More ways on, after "Try again". */
  children?: ReactNode;
}

/** A card for a link whose check failed for another reason than the code: the error and "Try again". */
export const LinkFailedCard = forwardRef<HTMLDivElement, LinkFailedCardProps>(function LinkFailedCard(
  { title, error, onRetry, children, ...rest },
  ref,
) {
  const { labels, messages } = useText();
  return (
    <AuthCard
      {...rest}
      ref={ref}
      icon={<Icon name="alert" size={22} />}
      title={title}
      subtitle={
        <span className="lk-error-text" role="alert">
          {errorText(error, messages)}
        </span>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-button lk-button-primary lk-button-block" onClick={onRetry}>
          {labels.tryAgain}
        </button>
        {children}
      </div>
    </AuthCard>
  );
});

/** The status line a page shows while it checks a link. */
export function Checking({ children }: { children: ReactNode }) {
  return (
    <div className="lk-status" role="status">
      <span aria-hidden="true" className="lk-spinner" />
      <span>{children}</span>
    </div>
  );
}
