/** `EmailVerification`: the page an e-mail verification link opens (`?code=`). */
import { forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText } from '../internal/text.js';
import { codeFromUrl, useOnce } from '../internal/use-once.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { Checking, LinkFailedCard, LinkProblemCard, linkProblemOf } from './link-problem.js';

/**
 * Props of `EmailVerification`: the code (default: the page's `?code=`), its
 * words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <EmailVerification labels={{ emailVerifiedTitle: 'All set!' }} />
 * ```
 */
export interface EmailVerificationProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The code from the link; defaults to the `code` query parameter of the page. */
  code?: string;
}

/**
 * Verifies the address of a verification link as soon as it opens (once,
 * also under StrictMode: a code works once), then says it is verified, or
 * why the link does not work (unknown, expired, already used). Other props
 * and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/email-verification (the Handler does this for you)
 * <LatchkeyProvider app={app}><EmailVerification /></LatchkeyProvider>
 * ```
 */
export const EmailVerification = forwardRef<HTMLDivElement, EmailVerificationProps>(function EmailVerification(
  { code: givenCode, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = text.labels;
  const code = givenCode ?? codeFromUrl();
  const [state, retry] = useOnce(code && `verify:${code}`, () => app.verifyEmail(code ?? ''));
  const problem = code ? linkProblemOf(state.error) : 'invalid';
  const home = (
    <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
      {state.status === 'done' ? words.continueLabel : words.goHome}
    </a>
  );

  let page: ReactNode;
  if (problem) {
    page = (
      <LinkProblemCard
        {...rest}
        ref={ref}
        problem={problem}
        text={problem === 'used' ? words.emailVerificationUsedText : undefined}
      >
        {home}
      </LinkProblemCard>
    );
  } else if (state.status === 'failed') {
    page = (
      <LinkFailedCard {...rest} ref={ref} title={words.emailVerificationTitle} error={state.error} onRetry={retry} />
    );
  } else if (state.status === 'done') {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="check" size={22} />}
        title={words.emailVerifiedTitle}
        subtitle={words.emailVerifiedText}
      >
        <div className="lk-actions">{home}</div>
      </AuthCard>
    );
  } else {
    page = (
      <AuthCard {...rest} ref={ref} icon={<Icon name="mail" size={22} />} title={words.emailVerificationTitle}>
        <Checking>{words.emailVerificationChecking}</Checking>
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
