/**
 * The credential form as compound parts: `CredentialForm` holds the state and
 * calls the SDK; `FormError`, `EmailField`, `PasswordField` and `SubmitButton`
 * render inside it, in any order and with any markup around them.
 */
import { constants } from '@latchkey/protocol';
import { createContext, type ReactNode, useContext } from 'react';
import { Spinner } from '../spinner.js';
import { PasswordInput } from './password-input.js';
import { type CredentialFormOptions, type CredentialFormState, useCredentialForm } from './use-credential-form.js';

const FormContext = createContext<CredentialFormState | null>(null);

function useFormContext(part: string): CredentialFormState {
  const form = useContext(FormContext);
  if (!form) throw new Error(`<${part}> must be placed inside <CredentialForm>.`);
  return form;
}

/**
 * Props of `CredentialForm`: what it does (`kind`, `messages`, `noRedirect`,
 * `onSuccess`), the e-mail value (controlled with `email` + `onEmailChange`,
 * or uncontrolled with `defaultEmail`) and its parts.
 *
 * @example
 * ```tsx
 * <CredentialForm kind="sign-up" defaultEmail={invitedEmail} noRedirect onSuccess={() => setStep('welcome')} />
 * ```
 */
export interface CredentialFormProps extends CredentialFormOptions {
  className?: string;
  /** The parts; defaults to an error area, the e-mail and password fields and the submit button. */
  children?: ReactNode;
}

/**
 * An e-mail + password form that signs in or signs up through the app of the
 * nearest `LatchkeyProvider`. It checks the fields first (required, e-mail
 * shape, password length on sign-up), then shows the service's refusals with
 * the wording of `messages` (known-error codes, reworded or translated).
 *
 * @example
 * ```tsx
 * <CredentialForm kind="sign-in" messages={{ EMAIL_PASSWORD_MISMATCH: 'Nope, try again.' }}>
 *   <FormError />
 *   <EmailField label="Work e-mail" />
 *   <PasswordField />
 *   <SubmitButton>Continue</SubmitButton>
 * </CredentialForm>
 * ```
 */
export function CredentialForm({ className, children, ...options }: CredentialFormProps) {
  const form = useCredentialForm(options);
  return (
    <FormContext.Provider value={form}>
      <form
        className={`lk-form${className ? ` ${className}` : ''}`}
        noValidate
        onSubmit={form.onSubmit}
        aria-describedby={form.errors.form ? form.ids.formError : undefined}
      >
        {children ?? (
          <>
            <FormError />
            <EmailField />
            <PasswordField />
            <SubmitButton />
          </>
        )}
      </form>
    </FormContext.Provider>
  );
}

/**
 * The form-level error (a refusal from the service), announced with `role="alert"`.
 *
 * @example
 * ```tsx
 * <CredentialForm kind="sign-up"><FormError />...</CredentialForm>
 * ```
 */
export function FormError() {
  const { errors, ids } = useFormContext('FormError');
  return (
    <div className="lk-alert-region" role="alert" id={ids.formError}>
      {errors.form ? (
        <p className="lk-alert">
          <svg className="lk-alert-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <circle cx="10" cy="10" r="8" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path d="M10 5.8v5.2M10 13.6v.4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <span>{errors.form}</span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * Props of `EmailField` (and the base of `PasswordField`'s).
 *
 * @example
 * ```tsx
 * <EmailField label="Work e-mail" placeholder="you@company.com" />
 * ```
 */
export interface FieldProps {
  /** Visible label (default "E-mail" / "Password"). */
  label?: ReactNode;
  placeholder?: string;
}

/**
 * The labelled e-mail field of a `CredentialForm`.
 *
 * @example
 * ```tsx
 * <EmailField label="E-mail address" placeholder="you@example.com" />
 * ```
 */
export function EmailField({ label = 'E-mail', placeholder = 'you@example.com' }: FieldProps) {
  const { ids, email, setEmail, errors } = useFormContext('EmailField');
  return (
    <FieldFrame inputId={ids.email} label={label} error={{ id: ids.emailError, text: errors.email }}>
      {(described) => (
        <input
          {...described}
          id={ids.email}
          className="lk-input"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          placeholder={placeholder}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/**
 * Props of `PasswordField`.
 *
 * @example
 * ```tsx
 * <PasswordField hint={null} />
 * ```
 */
export interface PasswordFieldProps extends FieldProps {
  /** Help text under the field; sign-up forms show the length rule by default. */
  hint?: ReactNode;
}

/**
 * The labelled password field of a `CredentialForm`, with a show/hide toggle.
 *
 * @example
 * ```tsx
 * <PasswordField label="Choose a password" hint="Eight characters or more." />
 * ```
 */
export function PasswordField({ label = 'Password', placeholder, hint }: PasswordFieldProps) {
  const { ids, kind, password, setPassword, errors } = useFormContext('PasswordField');
  const shownHint = hint ?? (kind === 'sign-up' ? `At least ${constants.passwordMinLength} characters.` : null);
  return (
    <FieldFrame
      inputId={ids.password}
      label={label}
      error={{ id: ids.passwordError, text: errors.password }}
      hint={{ id: ids.passwordHint, text: shownHint }}
    >
      {(described) => (
        <PasswordInput
          {...described}
          id={ids.password}
          name="password"
          autoComplete={kind === 'sign-up' ? 'new-password' : 'current-password'}
          required
          placeholder={placeholder}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/** Text under a field, found by its id. */
interface FieldNote {
  id: string;
  text: ReactNode;
}

/** The ARIA props that tie an input to its error and hint. */
interface DescribedProps {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldFrameProps {
  inputId: string;
  label: ReactNode;
  error: FieldNote;
  hint?: FieldNote;
  /** Renders the input, given the props that describe it. */
  children: (described: DescribedProps) => ReactNode;
}

/** What every field shares: label, input, the error (tied with aria-describedby, aria-invalid) and an optional hint. */
function FieldFrame({ inputId, label, error, hint, children }: FieldFrameProps) {
  const notes = [error, hint].filter((note): note is FieldNote => Boolean(note?.text));
  const described: DescribedProps = {
    'aria-invalid': error.text ? true : undefined,
    'aria-describedby': notes.length > 0 ? notes.map((note) => note.id).join(' ') : undefined,
  };
  return (
    <div className="lk-field">
      <label className="lk-label" htmlFor={inputId}>
        {label}
      </label>
      {children(described)}
      {error.text ? (
        <p className="lk-field-error" id={error.id}>
          {error.text}
        </p>
      ) : null}
      {hint?.text ? (
        <p className="lk-hint" id={hint.id}>
          {hint.text}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Props of `SubmitButton`.
 *
 * @example
 * ```tsx
 * <SubmitButton busyChildren="Checking…">Continue</SubmitButton>
 * ```
 */
export interface SubmitButtonProps {
  /** Label (default "Sign in" / "Create account"). */
  children?: ReactNode;
  /** Label while the form is busy (default "Signing in…" / "Creating account…"). */
  busyChildren?: ReactNode;
}

/**
 * The submit button of a `CredentialForm`; disabled and `aria-busy` while the
 * service answers and while the SDK redirects.
 *
 * @example
 * ```tsx
 * <SubmitButton busyChildren="One moment…">Continue</SubmitButton>
 * ```
 */
export function SubmitButton({ children, busyChildren }: SubmitButtonProps) {
  const { kind, status } = useFormContext('SubmitButton');
  const busy = status !== 'idle';
  const idleLabel = children ?? (kind === 'sign-in' ? 'Sign in' : 'Create account');
  const busyLabel = busyChildren ?? (kind === 'sign-in' ? 'Signing in…' : 'Creating account…');
  return (
    <button type="submit" className="lk-button lk-button-primary lk-button-block" disabled={busy} aria-busy={busy}>
      {busy ? <Spinner /> : null}
      <span>{busy ? busyLabel : idleLabel}</span>
    </button>
  );
}
