'use client';
/** `MagicLinkCallback`: the page a sign-in link opens (`?code=`); signs in with it, then redirects. */
import { multiFactorAttempt } from '@latchkey/js';
import { forwardRef, type HTMLAttributes } from 'react';
import { emailLabels } from '../email/email-labels.js';
import { cx } from '../internal/root-props.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { LinkCodePage } from '../link-code/link-code-page.js';
import { useLinkCode } from '../link-code/use-link-code.js';
import { SecondFactorStep } from '../mfa/second-factor-step.js';
import { useApp } from '../provider.js';
import { magicLinkLabels } from './magic-link-labels.js';

/**
 * Props of `MagicLinkCallback`: the code (default: the page's `?code=`), its
 * words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <MagicLinkCallback labels={{ magicLinkSigningIn: 'Welcome back…' }} />
 * ```
 */
export interface MagicLinkCallbackProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The code from the link; defaults to the `code` query parameter of the page. */
  code?: string;
}

/**
 * Signs in with the link's code as soon as the page opens (once, also under
 * StrictMode: a code works once); the SDK then goes to the after-sign-in page
 * (after-sign-up for a new account). A link that does not work (unknown,
 * expired, used, blocked) gets a card saying so, with the way back to
 * sign-in to ask for a new one. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/magic-link-callback (the Handler does this for you)
 * <LatchkeyProvider app={app}><MagicLinkCallback /></LatchkeyProvider>
 * ```
 */
export const MagicLinkCallback = forwardRef<HTMLDivElement, MagicLinkCallbackProps>(function MagicLinkCallback(
  { code, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, emailLabels, magicLinkLabels);
  const link = useLinkCode({
    code,
    name: 'magic-link',
    check: (given) => app.signInWithMagicLink(given),
    usedOnCheck: true,
  });
  const signIn = (main: boolean) => (
    <a
      className={cx('lk-button lk-button-block', main ? 'lk-button-primary' : 'lk-button-secondary')}
      href={app.urls.signIn}
    >
      {words.backToSignIn}
    </a>
  );
  // The link was accepted and the service asks for the second factor (or its set-up).
  const attempt = link.step === 'failed' ? multiFactorAttempt(link.error) : null;
  if (attempt) {
    return (
      <TextContext.Provider value={text}>
        <SecondFactorStep {...rest} ref={ref} attempt={attempt} />
      </TextContext.Provider>
    );
  }
  // Done shows the checking card too: the SDK is taking the browser to the next page.
  return (
    <LinkCodePage
      {...rest}
      pageRef={ref}
      link={link}
      text={text}
      icon="mail"
      title={words.magicLinkSigningIn}
      checking={words.emailVerificationChecking}
      failedTitle={words.magicLinkFailedTitle}
      failedActions={signIn(false)}
      problemActions={signIn(true)}
      card={() => null}
    />
  );
});
