/**
 * `TeamInvitation`: the page a team-invitation link opens (`?code=`). It
 * names the team and the address the invitation was sent to; a signed-out
 * visitor signs in or up (and comes back here), a signed-in one joins. An
 * account without the invited address is told so, with a way to switch
 * accounts: the service lets only the invited address in, and only once it
 * is verified. An invitee whose primary address is the invited one but not
 * yet verified is asked to verify it (the link itself proves nothing: it may
 * have been forwarded), with a button that mails the verification link.
 */
import { isKnownError } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, type ReactNode, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { Checking, LinkFailedCard, LinkProblemCard, linkProblemOf } from '../email/link-problem.js';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText } from '../internal/text.js';
import { codeFromUrl, useOnce } from '../internal/use-once.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';

/**
 * Props of `TeamInvitation`: the code (default: the page's `?code=`), its
 * words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <TeamInvitation labels={{ teamInvitationAccept: 'Accept' }} />
 * ```
 */
export interface TeamInvitationProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The code from the link; defaults to the `code` query parameter of the page. */
  code?: string;
}

/**
 * The team-invitation page (served by `Handler` at `team-invitation`).
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app}><TeamInvitation /></LatchkeyProvider>
 * ```
 */
export const TeamInvitation = forwardRef<HTMLDivElement, TeamInvitationProps>(function TeamInvitation(
  { code: givenCode, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = text.labels;
  const user = useUser();
  const code = givenCode ?? codeFromUrl();
  const [details, retry] = useOnce(code && `team-invitation:${code}`, () => app.getTeamInvitationDetails(code ?? ''));
  const [joined, setJoined] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [verificationSent, setVerificationSent] = useState(false);
  const problem = code ? linkProblemOf(details.error ?? error) : 'invalid';
  const home = (
    <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
      {joined ? words.continueLabel : words.goHome}
    </a>
  );

  const join = async () => {
    setBusy(true);
    setError(null);
    try {
      await app.acceptTeamInvitation(code ?? '');
      setJoined(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  let page: ReactNode;
  const teamGone = isKnownError(details.error ?? error, 'TEAM_NOT_FOUND');
  if (teamGone) {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="alert" size={22} />}
        title={words.teamInvitationTeamGoneTitle}
        subtitle={words.teamInvitationTeamGoneText}
      >
        <div className="lk-actions">{home}</div>
      </AuthCard>
    );
  } else if (problem) {
    page = (
      <LinkProblemCard {...rest} ref={ref} problem={problem}>
        {home}
      </LinkProblemCard>
    );
  } else if (details.status === 'failed') {
    page = (
      <LinkFailedCard {...rest} ref={ref} title={words.teamInvitationChecking} error={details.error} onRetry={retry} />
    );
  } else if (details.status === 'pending') {
    page = (
      <AuthCard {...rest} ref={ref} icon={<Icon name="mail" size={22} />} title={words.teamInvitationChecking}>
        <Checking>{words.teamInvitationChecking}</Checking>
      </AuthCard>
    );
  } else if (joined) {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="check" size={22} />}
        title={words.teamInvitationJoinedTitle({ team: details.value.teamDisplayName })}
        subtitle={words.teamInvitationJoinedText}
      >
        <div className="lk-actions">{home}</div>
      </AuthCard>
    );
  } else {
    const { teamDisplayName, recipientEmail } = details.value;
    const refused = isKnownError(error, 'EMAIL_NOT_ASSOCIATED_WITH_USER');
    // The invited address is this user's, still unproven: verifying it is the way in, not another account.
    const unverified =
      refused &&
      !!user &&
      !user.primaryEmailVerified &&
      !!recipientEmail &&
      user.primaryEmail?.toLowerCase() === recipientEmail.toLowerCase();
    const wrongAccount = refused && !unverified;
    const sendVerification = async () => {
      setBusy(true);
      try {
        await user?.sendVerificationEmail();
        setVerificationSent(true);
      } catch (caught) {
        setError(caught);
      } finally {
        setBusy(false);
      }
    };
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="user" size={22} />}
        title={words.teamInvitationTitle({ team: teamDisplayName })}
        subtitle={recipientEmail ? words.teamInvitationSentTo({ email: recipientEmail }) : undefined}
      >
        <div className="lk-notice-region" role="alert">
          {error && !refused ? <p className="lk-alert">{errorText(error, text.messages)}</p> : null}
          {unverified ? (
            <p className="lk-alert">
              {verificationSent
                ? words.accountEmailVerificationSent({ email: recipientEmail ?? '' })
                : words.teamInvitationVerifyFirst({ email: recipientEmail ?? '' })}
            </p>
          ) : null}
          {wrongAccount && user ? (
            <p className="lk-alert">
              {words.teamInvitationWrongAccount({
                email: recipientEmail ?? '',
                current: user.primaryEmail ?? user.displayName ?? '',
              })}
            </p>
          ) : null}
        </div>
        {user ? (
          <div className="lk-actions">
            {unverified ? (
              <button
                type="button"
                className="lk-button lk-button-primary lk-button-block"
                disabled={busy || verificationSent}
                aria-busy={busy || undefined}
                onClick={() => void sendVerification()}
              >
                {busy ? <Spinner /> : null}
                <span>{words.accountEmailSendVerification}</span>
              </button>
            ) : wrongAccount ? (
              <button
                type="button"
                className="lk-button lk-button-primary lk-button-block"
                onClick={() => void user.signOut({ noRedirect: true })}
              >
                {words.teamInvitationSwitchAccount}
              </button>
            ) : (
              <button
                type="button"
                className="lk-button lk-button-primary lk-button-block"
                disabled={busy}
                aria-busy={busy || undefined}
                onClick={() => void join()}
              >
                {busy ? <Spinner /> : null}
                <span>{busy ? words.teamInvitationAccepting : words.teamInvitationAccept}</span>
              </button>
            )}
          </div>
        ) : (
          <>
            <p className="lk-form-text">{words.teamInvitationSignInPrompt}</p>
            <div className="lk-actions">
              <button
                type="button"
                className="lk-button lk-button-primary lk-button-block"
                onClick={() => void app.redirectToSignIn()}
              >
                {words.teamInvitationSignIn}
              </button>
              <button
                type="button"
                className="lk-button lk-button-secondary lk-button-block"
                onClick={() => void app.redirectToSignUp()}
              >
                {words.teamInvitationSignUp}
              </button>
            </div>
          </>
        )}
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
