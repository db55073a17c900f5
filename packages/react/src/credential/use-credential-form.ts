/** State and submission of a credential (e-mail + password) form. */
import { familiesOf, type KnownErrorCode } from '@latchkey/protocol';
import { type FormEvent, type RefObject, useId, useRef, useState } from 'react';
import { errorText, knownErrorCodeOf } from '../internal/error-text.js';
import { useControllableState } from '../internal/use-controllable-state.js';
import type { LatchkeyMessages } from '../messages.js';
import { useApp } from '../provider.js';
import { type CredentialKind, type FieldErrors, validateCredentials } from './validation.js';

/** `submitting` while the service answers; `redirecting` after success while the SDK navigates away. */
export type CredentialFormStatus = 'idle' | 'submitting' | 'redirecting';

export interface CredentialFormOptions {
  kind: CredentialKind;
  /** Rewording of known errors and form messages. */
  messages?: LatchkeyMessages;
  /** Stay on the page after success instead of letting the SDK redirect. */
  noRedirect?: boolean;
  /** Called after the service accepted the credentials. */
  onSuccess?: (result: { email: string }) => void;
  /** The e-mail value (controlled). */
  email?: string;
  /** The e-mail value at first (uncontrolled). */
  defaultEmail?: string;
  onEmailChange?: (email: string) => void;
}

export interface FormErrors extends FieldErrors {
  form?: string;
}

export type CredentialFormState = ReturnType<typeof useCredentialForm>;

export function useCredentialForm(options: CredentialFormOptions) {
  const { kind, messages, noRedirect, onSuccess } = options;
  const app = useApp();
  const formErrorId = `${useId()}form-error`;
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [email, setEmailValue] = useControllableState(options.email, options.defaultEmail ?? '', options.onEmailChange);
  const [password, setPasswordValue] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [status, setStatus] = useState<CredentialFormStatus>('idle');
  const inFlight = useRef(false);

  const setEmail = (value: string) => {
    setEmailValue(value);
    if (errors.email) setErrors(({ email: _, ...rest }) => rest);
  };
  const setPassword = (value: string) => {
    setPasswordValue(value);
    if (errors.password) setErrors(({ password: _, ...rest }) => rest);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const fieldErrors = validateCredentials(kind, { email, password }, messages);
    if (fieldErrors.email || fieldErrors.password) {
      setErrors(fieldErrors);
      focus(fieldErrors.email ? emailRef : passwordRef);
      return;
    }
    inFlight.current = true;
    setErrors({});
    setStatus('submitting');
    const credentials = { email: email.trim(), password, ...(noRedirect ? { noRedirect: true } : {}) };
    try {
      if (kind === 'sign-in') await app.signInWithCredential(credentials);
      else await app.signUpWithCredential(credentials);
      onSuccess?.({ email: credentials.email });
      setStatus(noRedirect ? 'idle' : 'redirecting');
      if (noRedirect) inFlight.current = false;
    } catch (error) {
      inFlight.current = false;
      setStatus('idle');
      const text = errorText(error, messages);
      if (isPasswordRequirement(knownErrorCodeOf(error))) {
        setErrors({ password: text });
        focus(passwordRef);
      } else {
        // The submit button was disabled while busy, which drops its focus: bring keyboard users back to the form.
        setErrors({ form: text });
        focus(emailRef);
      }
    }
  };

  return { kind, formErrorId, emailRef, passwordRef, email, setEmail, password, setPassword, errors, status, onSubmit };
}

function isPasswordRequirement(code: KnownErrorCode | null): boolean {
  return code !== null && familiesOf(code).includes('PASSWORD_REQUIREMENTS_NOT_MET');
}

function focus(ref: RefObject<HTMLInputElement | null>) {
  ref.current?.focus();
}
