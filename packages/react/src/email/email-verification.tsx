'use client';
/** `EmailVerification`: the page an e-mail verification link opens (`?code=`). */
import { forwardRef, type HTMLAttributes } from 'react';
import { useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { LinkCodePage } from '../link-code/link-code-page.js';
import { useLinkCode } from '../link-code/use-link-code.js';
import { useApp } from '../provider.js';
import { emailLabels } from './email-labels.js';

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
  { code, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, emailLabels);
  const link = useLinkCode({ code, name: 'verify', check: (given) => app.verifyEmail(given), usedOnCheck: true });
  const home = (
    <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
      {link.step === 'done' ? words.continueLabel : words.goHome}
    </a>
  );
  return (
    <LinkCodePage
      {...rest}
      pageRef={ref}
      link={link}
      text={text}
      icon="mail"
      title={words.emailVerificationTitle}
      checking={words.emailVerificationChecking}
      problemActions={home}
      usedText={words.emailVerificationUsedText}
      card={(step) =>
        step === 'done'
          ? {
              icon: 'check',
              title: words.emailVerifiedTitle,
              subtitle: words.emailVerifiedText,
              body: <div className="lk-actions">{home}</div>,
            }
          : null
      }
    />
  );
});
