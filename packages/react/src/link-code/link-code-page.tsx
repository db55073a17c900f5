/**
 * `LinkCodePage`: the one page of an e-mailed link, at the step its
 * `useLinkCode` state is in. It words checking, an unusable link (missing or
 * unknown code, expired, used, blocked) and a failed check (with "Try
 * again"); the page using it supplies its own cards for the other steps and
 * the ways on.
 */
import { forwardRef, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { commonLabels } from '../internal/common-labels.js';
import { errorText } from '../internal/error-text.js';
import { Icon, type IconName } from '../internal/icon.js';
import { type Text, TextContext, useLabels, useText } from '../internal/text.js';
import { linkCodeLabels } from './link-code-labels.js';
import type { LinkCode, LinkProblem, LinkStep } from './use-link-code.js';

/** The labels this module shows. */
const pageLabels = { ...commonLabels, ...linkCodeLabels };

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
  const labels = useLabels(pageLabels);
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

/** A card of a link page: what the page says at one step. */
export interface LinkCard {
  icon: IconName;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Under the subtitle (actions, a form). */
  body?: ReactNode;
}

export interface LinkCodePageProps<T> extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'title'> {
  link: LinkCode<T>;
  /** The page's words, in force on every card. */
  text: Text;
  pageRef?: Ref<HTMLDivElement> | undefined;
  /** Icon and title while the code is checked. */
  icon: IconName;
  title: ReactNode;
  /** The status text while the code is checked. */
  checking: ReactNode;
  /** Title of the card of a failed check (default: `title`). */
  failedTitle?: ReactNode;
  /** More ways on after "Try again" when the check failed. */
  failedActions?: ReactNode;
  /** The ways on from an unusable link. */
  problemActions: ReactNode;
  /** Replaces the standard explanation of a used link. */
  usedText?: ReactNode;
  /** The page's own card at `step` (`null`: the standard one, for checking, problems and failures). */
  card: (step: LinkStep, value: T | undefined) => LinkCard | null;
}

/** The page an e-mailed link opens, at the step of `link`. Other props and `pageRef` go to the page element. */
export function LinkCodePage<T>(props: LinkCodePageProps<T>) {
  const {
    link,
    text,
    pageRef,
    icon,
    title,
    checking,
    failedTitle,
    failedActions,
    problemActions,
    usedText,
    card,
    ...rest
  } = props;
  const { step } = link;
  const own = card(step, link.value);
  let page: ReactNode;
  if (own) {
    page = (
      <AuthCard
        {...rest}
        ref={pageRef}
        icon={<Icon name={own.icon} size={22} />}
        title={own.title}
        subtitle={own.subtitle}
      >
        {own.body}
      </AuthCard>
    );
  } else if (step === 'failed') {
    page = (
      <LinkFailedCard {...rest} ref={pageRef} title={failedTitle ?? title} error={link.error} onRetry={link.retry}>
        {failedActions}
      </LinkFailedCard>
    );
  } else if (step === 'invalid' || step === 'expired' || step === 'used' || step === 'attempts') {
    page = (
      <LinkProblemCard {...rest} ref={pageRef} problem={step} text={step === 'used' ? usedText : undefined}>
        {problemActions}
      </LinkProblemCard>
    );
  } else {
    page = (
      <AuthCard {...rest} ref={pageRef} icon={<Icon name={icon} size={22} />} title={title}>
        <Checking>{checking}</Checking>
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
}
