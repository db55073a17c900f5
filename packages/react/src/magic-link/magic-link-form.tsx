/**
 * The sign-in page's "E-mail me a code" form: an e-mail, then the code from
 * the e-mail (or its link), with "send a new code" and a way back.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { emailError } from '../credential/validation.js';
import { BusyButton, FormAlert } from '../email/form-parts.js';
import { EmailInput } from '../internal/email-input.js';
import { errorText, formMessage, knownErrorCodeOf } from '../internal/error-text.js';
import { Field } from '../internal/field.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useApp } from '../provider.js';
import { CodeInput } from './code-input.js';

export interface MagicLinkFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Back to the password form; no such button when absent. */
  onUsePassword?: () => void;
  noRedirect?: boolean | undefined;
  onSuccess?: ((result: { email: string }) => void) | undefined;
}

type Status = 'idle' | 'sending' | 'signing-in' | 'redirecting';

export function MagicLinkForm({ email, onEmailChange, onUsePassword, noRedirect, onSuccess }: MagicLinkFormProps) {
  const app = useApp();
  const labels = useLabels();
  const messages = useMessages();
  const ids = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [nonce, setNonce] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [fieldError, setFieldError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [notice, setNotice] = useState('');
  const busy = status !== 'idle';

  // A new step takes the focus: the person typed or clicked to get there.
  useEffect(() => (nonce ? codeRef : emailRef).current?.focus(), [nonce]);

  const send = async (again: boolean) => {
    if (busy) return;
    const problem = emailError(email, messages);
    setFieldError(problem);
    setFormError(undefined);
    setNotice('');
    if (problem) return emailRef.current?.focus();
    setStatus('sending');
    try {
      const sent = await app.sendMagicLinkEmail(email.trim());
      setNonce(sent.nonce);
      setCode('');
      if (again) setNotice(labels.codeSentAgain);
      codeRef.current?.focus();
    } catch (error) {
      setFormError(errorText(error, messages));
    }
    setStatus('idle');
  };

  const signIn = async (typed: string) => {
    if (busy || !nonce) return;
    setFormError(undefined);
    setNotice('');
    if (typed.length < 6) {
      setFieldError(formMessage('CODE_REQUIRED', messages));
      return codeRef.current?.focus();
    }
    setFieldError(undefined);
    setStatus('signing-in');
    try {
      await app.signInWithMagicLink(typed.toLowerCase() + nonce, noRedirect ? { noRedirect: true } : {});
      onSuccess?.({ email: email.trim() });
      setStatus(noRedirect ? 'idle' : 'redirecting');
    } catch (error) {
      setStatus('idle');
      const wrong = knownErrorCodeOf(error) === 'VERIFICATION_CODE_NOT_FOUND';
      setFieldError(wrong ? formMessage('CODE_INCORRECT', messages) : errorText(error, messages));
      codeRef.current?.focus();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (nonce) signIn(code);
    else send(false);
  };

  return (
    <form className="lk-form" noValidate onSubmit={onSubmit} aria-describedby={formError ? `${ids}error` : undefined}>
      <FormAlert id={`${ids}error`} message={formError} />
      {nonce ? (
        <>
          <p className="lk-form-text">{labels.codeSentTo({ email: email.trim() })}</p>
          <Field label={labels.codeLabel} error={fieldError}>
            {(control) => (
              <CodeInput
                {...control}
                ref={codeRef}
                name="code"
                required
                value={code}
                onValueChange={(next) => {
                  setCode(next);
                  setFieldError(undefined);
                }}
                onComplete={signIn}
              />
            )}
          </Field>
          <BusyButton busy={busy} busyLabel={status === 'sending' ? labels.sendingBusy : labels.signInBusy}>
            {labels.signInSubmit}
          </BusyButton>
          <p className="lk-status-text" role="status">
            {notice}
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
                setFieldError(undefined);
                setNotice('');
              }}
            >
              {labels.useAnotherEmail}
            </button>
          </div>
        </>
      ) : (
        <>
          <Field label={labels.emailLabel} error={fieldError}>
            {(control) => (
              <EmailInput
                {...control}
                ref={emailRef}
                required
                value={email}
                onChange={(event) => {
                  onEmailChange(event.target.value);
                  setFieldError(undefined);
                }}
              />
            )}
          </Field>
          <BusyButton busy={busy} busyLabel={labels.sendingBusy}>
            {labels.magicLinkSubmit}
          </BusyButton>
        </>
      )}
      {onUsePassword ? (
        <button type="button" className="lk-button lk-button-secondary lk-button-block" onClick={onUsePassword}>
          {labels.passwordOption}
        </button>
      ) : null}
    </form>
  );
}
