/**
 * The sign-in page's "E-mail me a code" form: an e-mail, then the code from
 * the e-mail (or its link), with "send a new code" and a way back. The
 * passkey sign-up runs it too, with its own words, to prove the address first.
 */
import { type MultiFactorAttempt, multiFactorAttempt } from '@latchkey/js';
import { useEffect, useState } from 'react';
import { credentialLabels } from '../credential/credential-labels.js';
import { emailError } from '../credential/validation.js';
import { FormAlert } from '../form/alert.js';
import { Form, FormField, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText, formMessage, knownErrorCodeOf } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import type { LabelsOf } from '../labels.js';
import { useApp } from '../provider.js';
import { CodeInput } from './code-input.js';
import { magicLinkLabels } from './magic-link-labels.js';

export interface MagicLinkFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Back to the password form; no such button when absent. */
  onUsePassword?: () => void;
  noRedirect?: boolean | undefined;
  /** The code signed in (`newUser`: the code's sign-in created the account). */
  onSuccess?: ((result: { email: string; newUser: boolean }) => void) | undefined;
  /** The code was accepted and the service asks for the second factor. */
  onMultiFactor?: ((attempt: MultiFactorAttempt) => void) | undefined;
  /**
   * Sending the code failed, or the person went back from the code to the
   * e-mail field (the code did not sign them in): the page's passkey autofill starts again.
   */
  onFailure?: (() => void) | undefined;
  /** The e-mail field's `autocomplete` (`username webauthn` where the browser offers passkeys in it). */
  emailAutoComplete?: string | undefined;
  /** Words over the sign-in ones (the passkey sign-up's: the code confirms the address). */
  words?: Partial<LabelsOf<typeof magicLinkLabels & typeof credentialLabels>>;
}

export function MagicLinkForm({
  email,
  onEmailChange,
  onUsePassword,
  noRedirect,
  onSuccess,
  onMultiFactor,
  onFailure,
  emailAutoComplete,
  words,
}: MagicLinkFormProps) {
  const app = useApp();
  const labels = { ...useLabels(credentialLabels, magicLinkLabels), ...words };
  const messages = useMessages();
  const action = useFormAction(['email', 'code'] as const);
  const [nonce, setNonce] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const { busy, outcome } = action;

  // A new step (or a new code) takes the focus: the person typed or clicked to get there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new step moves the focus
  useEffect(() => {
    action.focus(nonce ? 'code' : 'email');
  }, [nonce]);

  const send = async (again: boolean) => {
    const done = await action.submit({
      check: () => ({ email: emailError(email, messages) }),
      work: async () => {
        const sent = await app.sendMagicLinkEmail(email.trim());
        setNonce(sent.nonce);
        setCode('');
        return again ? labels.codeSentAgain : null;
      },
      as: 'sending',
    });
    // Still on the e-mail field: the page's other ways in are open again.
    if (!done && !again) onFailure?.();
  };

  const signIn = (typed: string) =>
    nonce &&
    action.submit({
      check: () => ({ code: typed.length < 6 ? formMessage('CODE_REQUIRED', messages) : undefined }),
      work: async () => {
        let newUser: boolean;
        try {
          ({ newUser } = await app.signInWithMagicLink(
            typed.toLowerCase() + nonce,
            noRedirect ? { noRedirect: true } : {},
          ));
        } catch (error) {
          const attempt = onMultiFactor ? multiFactorAttempt(error) : null;
          // The page replaces the form with the second step.
          if (attempt) return onMultiFactor?.(attempt);
          throw error;
        }
        onSuccess?.({ email: email.trim(), newUser });
      },
      refusal: (error) => ({
        code:
          knownErrorCodeOf(error) === 'VERIFICATION_CODE_NOT_FOUND'
            ? formMessage('CODE_INCORRECT', messages)
            : errorText(error, messages),
      }),
      stayPending: !noRedirect,
    });

  return (
    <Form state={action} onSubmit={() => (nonce ? signIn(code) : send(false))}>
      <FormAlert />
      {nonce ? (
        <>
          <p className="lk-form-text">{labels.codeSentTo({ email: email.trim() })}</p>
          <FormField name="code" label={labels.codeLabel}>
            {(control) => (
              <CodeInput
                {...control}
                name="code"
                required
                value={code}
                onValueChange={(next) => {
                  setCode(next);
                  action.edited('code');
                }}
                onComplete={signIn}
              />
            )}
          </FormField>
          <BusyButton busyChildren={action.pending === 'sending' ? labels.sendingBusy : labels.signInBusy}>
            {labels.signInSubmit}
          </BusyButton>
          <p className="lk-status-text" role="status">
            {outcome?.kind === 'success' ? outcome.text : ''}
          </p>
          <div className="lk-actions">
            <button type="button" className="lk-button-text" disabled={busy} onClick={() => send(true)}>
              {labels.sendCodeAgain}
            </button>
            <button
              type="button"
              className="lk-button-text"
              disabled={busy}
              onClick={() => {
                setNonce(null);
                action.setErrors({});
                action.setOutcome(null);
                onFailure?.();
              }}
            >
              {labels.useAnotherEmail}
            </button>
          </div>
        </>
      ) : (
        <>
          <FormInputField
            required
            value={email}
            onValueChange={onEmailChange}
            {...(emailAutoComplete ? { autoComplete: emailAutoComplete } : {})}
          />
          <BusyButton busyChildren={labels.sendingBusy}>{labels.magicLinkSubmit}</BusyButton>
        </>
      )}
      {onUsePassword ? (
        <button type="button" className="lk-button lk-button-secondary lk-button-block" onClick={onUsePassword}>
          {labels.passwordOption}
        </button>
      ) : null}
    </Form>
  );
}
