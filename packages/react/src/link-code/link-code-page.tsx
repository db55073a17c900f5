/**
 * `LinkCodePage`: the one page of an e-mailed link, at the step its
 * `useLinkCode` state is in. It words checking, an unusable link (missing or
 * unknown code, expired, used, blocked) and a failed check (with "Try
 * again"); the page using it supplies its own cards for the other steps and
 * the ways on.
 */
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { errorText } from '../internal/error-text.js';
import { Icon, type IconName } from '../internal/icon.js';
import { type Text, TextContext, wordsOf } from '../internal/text.js';
import { linkCodeLabels } from './link-code-labels.js';
import type { LinkCode, LinkStep } from './use-link-code.js';

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
  const words = wordsOf(text, linkCodeLabels);
  const problem = {
    invalid: [words.linkInvalidTitle, words.linkInvalidText],
    expired: [words.linkExpiredTitle, words.linkExpiredText],
    used: [words.linkUsedTitle, usedText ?? words.linkUsedText],
    attempts: [words.linkAttemptsTitle, words.linkAttemptsText],
  }[step as string];
  const shown: LinkCard =
    card(step, link.value) ??
    (step === 'failed'
      ? {
          icon: 'alert',
          title: failedTitle ?? title,
          subtitle: (
            <span className="lk-error-text" role="alert">
              {errorText(link.error, text.messages)}
            </span>
          ),
          body: (
            <div className="lk-actions">
              <button type="button" className="lk-button lk-button-primary lk-button-block" onClick={link.retry}>
                {words.tryAgain}
              </button>
              {failedActions}
            </div>
          ),
        }
      : problem
        ? {
            icon: 'alert',
            title: problem[0],
            subtitle: problem[1],
            body: <div className="lk-actions">{problemActions}</div>,
          }
        : { icon, title, body: <Checking>{checking}</Checking> });
  return (
    <TextContext.Provider value={text}>
      <AuthCard
        {...rest}
        ref={pageRef}
        icon={<Icon name={shown.icon} size={22} />}
        title={shown.title}
        subtitle={shown.subtitle}
      >
        {shown.body}
      </AuthCard>
    </TextContext.Provider>
  );
}

/** The status line a page shows while it checks a link. */
export function Checking({ children }: { children: ReactNode }) {
  return (
    <div className="lk-status" role="status">
      <span aria-hidden="true" className="lk-spinner" />
      <span>{children}</span>
    </div>
  );
}
