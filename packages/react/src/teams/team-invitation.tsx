'use client';
/**
 * `TeamInvitation`: the page a team-invitation link opens (`?code=`). It
 * names the team and the address the invitation was sent to; a signed-out
 * visitor signs in or up (and comes back here), a signed-in one joins. An
 * account without the invited address is told so, with a way to switch
 * accounts: the service lets only the invited address in, and only once it
 * is verified or all there is to the account (a fresh sign-up with it: the
 * invitation, mailed there, then verifies it). An invitee whose primary
 * address is the invited one, not yet verified, beside other ways in is
 * asked to verify it (there the link proves nothing: it may have been
 * forwarded), with a button that mails the verification link.
 */
import { isKnownError } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, useState } from 'react';
import { accountSettingsLabels } from '../account-settings/account-settings-labels.js';
import { FormAlert } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { type LinkCard, LinkCodePage } from '../link-code/link-code-page.js';
import { useLinkCode } from '../link-code/use-link-code.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { teamLabels } from './team-labels.js';

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
  { code, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, accountSettingsLabels, teamLabels);
  const user = useUser();
  const action = useFormAction([], text.messages);
  const [refused, setRefused] = useState(false);
  const [verificationSent, setVerificationSent] = useState(false);
  // The invited address is this user's, still unproven: verifying it is the way in, not another account.
  const isUnverified = (recipientEmail: string | null | undefined) =>
    refused &&
    !!user &&
    !user.primaryEmailVerified &&
    !!recipientEmail &&
    user.primaryEmail?.toLowerCase() === recipientEmail.toLowerCase();
  const link = useLinkCode({
    code,
    name: 'team-invitation',
    check: (given) => app.getTeamInvitationDetails(given),
    needs: (details) => (!user ? 'sign-in' : isUnverified(details.recipientEmail) ? 'verified-address' : null),
  });
  const teamGone = isKnownError(link.error ?? action.failure, 'TEAM_NOT_FOUND');
  const home = (
    <a className="lk-button lk-button-primary lk-button-block" href={app.urls.home}>
      {link.step === 'done' ? words.continueLabel : words.goHome}
    </a>
  );

  const join = () =>
    action.run(async () => {
      try {
        await app.acceptTeamInvitation(link.code);
        // The team just joined is the one the user came for: it becomes the selected one.
        if (user && link.value) await user.setSelectedTeam(link.value.teamId);
        link.done();
      } catch (error) {
        if (link.spent(error)) return;
        // A refusal for the address is no failure of the page: it is worded below, with the way out.
        if (!isKnownError(error, 'EMAIL_NOT_ASSOCIATED_WITH_USER')) throw error;
        setRefused(true);
      }
    });

  const card = (step: string): LinkCard | null => {
    if (teamGone) {
      return {
        icon: 'alert',
        title: words.teamInvitationTeamGoneTitle,
        subtitle: words.teamInvitationTeamGoneText,
        body: <div className="lk-actions">{home}</div>,
      };
    }
    if (!link.value) return null;
    const { teamDisplayName, recipientEmail } = link.value;
    if (step === 'done') {
      return {
        icon: 'check',
        title: words.teamInvitationJoinedTitle({ team: teamDisplayName }),
        subtitle: words.teamInvitationJoinedText,
        body: <div className="lk-actions">{home}</div>,
      };
    }
    if (step !== 'ready' && step !== 'needs-sign-in' && step !== 'needs-verified-address') return null;
    const unverified = step === 'needs-verified-address';
    const wrongAccount = refused && !unverified;
    return {
      icon: 'user',
      title: words.teamInvitationTitle({ team: teamDisplayName }),
      subtitle: recipientEmail ? words.teamInvitationSentTo({ email: recipientEmail }) : undefined,
      body: (
        <>
          <FormAlert
            message={
              unverified
                ? verificationSent
                  ? words.accountEmailVerificationSent({ email: recipientEmail ?? '' })
                  : words.teamInvitationVerifyFirst({ email: recipientEmail ?? '' })
                : wrongAccount && user
                  ? words.teamInvitationWrongAccount({
                      email: recipientEmail ?? '',
                      current: user.primaryEmail ?? user.displayName ?? '',
                    })
                  : action.outcome?.text
            }
          />
          {user ? (
            <div className="lk-actions">
              {unverified ? (
                <BusyButton
                  type="button"
                  busy={action.busy}
                  disabled={verificationSent}
                  onClick={() =>
                    void action.run(async () => {
                      await user.sendVerificationEmail();
                      setVerificationSent(true);
                    })
                  }
                >
                  {words.accountEmailSendVerification}
                </BusyButton>
              ) : wrongAccount ? (
                <button
                  type="button"
                  className="lk-button lk-button-primary lk-button-block"
                  onClick={() => void user.signOut({ noRedirect: true })}
                >
                  {words.teamInvitationSwitchAccount}
                </button>
              ) : (
                <BusyButton
                  type="button"
                  busy={action.busy}
                  busyChildren={words.teamInvitationAccepting}
                  onClick={() => void join()}
                >
                  {words.teamInvitationAccept}
                </BusyButton>
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
        </>
      ),
    };
  };

  return (
    <LinkCodePage
      {...rest}
      pageRef={ref}
      link={link}
      text={text}
      icon="mail"
      title={words.teamInvitationChecking}
      checking={words.teamInvitationChecking}
      problemActions={home}
      card={card}
    />
  );
});
