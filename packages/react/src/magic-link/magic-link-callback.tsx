/** `MagicLinkCallback`: the page a sign-in link opens (`?code=`); signs in with it, then redirects. */
import { forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { Checking, LinkFailedCard, LinkProblemCard, linkProblemOf } from '../email/link-problem.js';
import { Icon } from '../internal/icon.js';
import { cx } from '../internal/root-props.js';
import { TextContext, useText } from '../internal/text.js';
import { codeFromUrl, useOnce } from '../internal/use-once.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';

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
  { code: givenCode, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = text.labels;
  const code = givenCode ?? codeFromUrl();
  const [state, retry] = useOnce(code && `magic-link:${code}`, () => app.signInWithMagicLink(code ?? ''));
  const problem = code ? linkProblemOf(state.error) : 'invalid';
  const signIn = (main: boolean) => (
    <a
      className={cx('lk-button lk-button-block', main ? 'lk-button-primary' : 'lk-button-secondary')}
      href={app.urls.signIn}
    >
      {words.backToSignIn}
    </a>
  );

  let page: ReactNode;
  if (problem) {
    page = (
      <LinkProblemCard {...rest} ref={ref} problem={problem}>
        {signIn(true)}
      </LinkProblemCard>
    );
  } else if (state.status === 'failed') {
    page = (
      <LinkFailedCard {...rest} ref={ref} title={words.magicLinkFailedTitle} error={state.error} onRetry={retry}>
        {signIn(false)}
      </LinkFailedCard>
    );
  } else {
    // Pending, and also done: the SDK is taking the browser to the next page.
    page = (
      <AuthCard {...rest} ref={ref} icon={<Icon name="mail" size={22} />} title={words.magicLinkSigningIn}>
        <Checking>{words.emailVerificationChecking}</Checking>
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
