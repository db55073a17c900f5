/**
 * The sign-up page's passkey sign-up, loaded when first shown: the e-mailed
 * code proves the address (the code's sign-in creates the account), then the
 * browser creates the passkey of the now signed-in user. A passkey the browser
 * refuses can be tried again, or skipped: the account exists already.
 */
import type { MultiFactorAttempt } from '@latchkey/js';
import { useEffect, useRef, useState } from 'react';
import { FormAlert } from '../form/alert.js';
import { Form } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { MagicLinkForm } from '../magic-link/magic-link-form.js';
import { signInStepLabels } from '../mfa/sign-in-step-labels.js';
import { useApp } from '../provider.js';
import { passkeySignUpLabels } from './passkey-sign-up-labels.js';

export interface PasskeySignUpProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Back to the password form; no such button when absent. */
  onUsePassword?: (() => void) | undefined;
  noRedirect?: boolean | undefined;
  onSuccess?: ((result: { email: string }) => void) | undefined;
  /** The code was accepted and the service asks for the second factor (an existing account with TOTP). */
  onMultiFactor: (attempt: MultiFactorAttempt) => void;
}

/** The e-mail and code steps, then the passkey step. */
export function PasskeySignUp({ onUsePassword, ...props }: PasskeySignUpProps) {
  const labels = useLabels(passkeySignUpLabels);
  const [signedIn, setSignedIn] = useState<{ newUser: boolean } | null>(null);
  if (signedIn) return <PasskeyStep {...props} newUser={signedIn.newUser} />;
  return (
    <>
      <p className="lk-form-text">{labels.passkeySignUpIntro}</p>
      <MagicLinkForm
        {...props}
        noRedirect
        onSuccess={setSignedIn}
        onUsePassword={onUsePassword}
        words={{
          codeSentTo: labels.passkeySignUpCodeSentTo,
          signInSubmit: labels.passkeySignUpConfirm,
          signInBusy: labels.passkeySignUpConfirmBusy,
          passwordOption: labels.passkeySignUpPasswordOption,
        }}
      />
    </>
  );
}

interface PasskeyStepProps extends Omit<PasskeySignUpProps, 'onUsePassword' | 'onMultiFactor'> {
  newUser: boolean;
}

/** Signed in: the browser creates the passkey at once; after a refusal, "Try again" or go on without one. */
function PasskeyStep({ email, newUser, noRedirect, onSuccess }: PasskeyStepProps) {
  const app = useApp();
  const labels = useLabels(passkeySignUpLabels, signInStepLabels);
  // No fields: the form is its button (a `Form`, so the alert is its own and Enter tries again).
  const action = useFormAction<string>();
  const failed = action.outcome?.kind === 'error';
  const text = useRef<HTMLParagraphElement>(null);
  const retry = useRef<HTMLButtonElement>(null);
  const started = useRef(false);

  /** On to where the sign-up ends (the page's return-to, else after sign-up), or `onSuccess` with `noRedirect`. */
  const goOn = () => {
    if (noRedirect) onSuccess?.({ email: email.trim() });
    else void (newUser ? app.redirectToAfterSignUp() : app.redirectToAfterSignIn());
  };
  const create = async () => {
    const done = await action.submit({
      work: async () => (await app.getUser({ or: 'throw' })).registerPasskey(),
      stayPending: !noRedirect,
    });
    if (done) goOn();
  };

  // The step's words take the focus from the vanished code field; the browser's prompt opens at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per showing
  useEffect(() => {
    text.current?.focus();
    if (started.current) return;
    started.current = true;
    void create();
  }, []);
  // A refusal: "Try again" takes the focus the disabled button lost (the alert says why).
  useEffect(() => {
    if (failed) retry.current?.focus();
  }, [failed]);

  return (
    <Form state={action} onSubmit={create}>
      <p className="lk-form-text" ref={text} tabIndex={-1}>
        {labels.passkeySignUpCreateText}
      </p>
      <FormAlert />
      <BusyButton ref={retry} busyChildren={labels.passkeySignInBusy}>
        {failed ? labels.tryAgain : labels.passkeySignUpCreate}
      </BusyButton>
      {failed ? (
        <button type="button" className="lk-button lk-button-secondary lk-button-block" onClick={goOn}>
          {labels.passkeySignUpSkip}
        </button>
      ) : null}
    </Form>
  );
}
