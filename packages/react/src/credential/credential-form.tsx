'use client';
/**
 * The credential form as compound parts: `CredentialForm` holds the state and
 * calls the SDK; `FormError`, `EmailField`, `PasswordField` and `SubmitButton`
 * render inside it, in any order and with any markup around them. Every part
 * takes the props of its main element (listed on each) and forwards its ref.
 */
import { type MultiFactorAttempt, multiFactorAttempt } from '@latchkey/js';
import { constants, familiesOf, type KnownErrorCode } from '@latchkey/protocol';
import {
  type ButtonHTMLAttributes,
  createContext,
  type FormHTMLAttributes,
  forwardRef,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  useContext,
  useState,
} from 'react';
import { FormAlert } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { type FormAction, useFormAction } from '../form/use-form-action.js';
import { errorText, knownErrorCodeOf } from '../internal/error-text.js';
import { cx } from '../internal/root-props.js';
import { TextContext, useLabels, useText } from '../internal/text.js';
import { useControllableState } from '../internal/use-controllable-state.js';
import type { LatchkeyTranslation } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';
import { useApp } from '../provider.js';
import { credentialLabels } from './credential-labels.js';
import { PasswordInput, type PasswordInputProps } from './password-input.js';
import { type CredentialKind, validateCredentials } from './validation.js';

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
  /**
   * The credentials were accepted and the service asks for the second factor
   * (or, under the project's requirement, its set-up): show `SecondFactorCard`
   * for `attempt`. Without it the form says so as an error.
   */
  onMultiFactor?: (attempt: MultiFactorAttempt) => void;
  /** A sending that did not go through: fields refused, credentials refused, or the request failed. */
  onFailure?: () => void;
  /**
   * An address proven another way (the invitation the person signs up from was mailed there): a sign-up
   * with it sends no verification mail.
   */
  provenEmail?: string | null;
}

interface CredentialFormState {
  kind: CredentialKind;
  action: FormAction<'email' | 'password'>;
  email: string;
  setEmail: (email: string) => void;
  password: string;
  setPassword: (password: string) => void;
}

const FormContext = createContext<CredentialFormState | null>(null);

function useFormContext(part: string): CredentialFormState {
  const form = useContext(FormContext);
  if (!form) throw new Error(`<${part}> must be placed inside <CredentialForm>.`);
  return form;
}

/**
 * Props of `CredentialForm`: what it does (`kind`, `noRedirect`,
 * `onSuccess`), its words (`labels`, `messages`), the e-mail value
 * (controlled with `email` + `onEmailChange`, or uncontrolled with
 * `defaultEmail`), its parts, and any `<form>` prop but `onSubmit`.
 *
 * @example
 * ```tsx
 * <CredentialForm kind="sign-up" defaultEmail={invitedEmail} noRedirect onSuccess={() => setStep('welcome')} />
 * ```
 */
export interface CredentialFormProps
  extends CredentialFormOptions,
    LatchkeyTranslation,
    Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'children'> {
  /** The parts; defaults to an error area, the e-mail and password fields and the submit button. */
  children?: ReactNode;
}

/**
 * An e-mail + password form that signs in or signs up through the app of the
 * nearest `LatchkeyProvider`. It checks the fields first (required, e-mail
 * shape, password length on sign-up), then shows the service's refusals with
 * the wording of `messages` (known-error codes, reworded or translated).
 * Other props and the ref go to the `<form>`.
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
export const CredentialForm = forwardRef<HTMLFormElement, CredentialFormProps>(function CredentialForm(
  {
    kind,
    labels,
    messages,
    noRedirect,
    onSuccess,
    email,
    defaultEmail,
    onEmailChange,
    onMultiFactor,
    onFailure,
    provenEmail,
    className,
    children,
    ...rest
  },
  ref,
) {
  const text = useText({ labels, messages });
  const form = useCredentialForm({
    kind,
    messages: text.messages,
    noRedirect,
    onSuccess,
    email,
    defaultEmail,
    onEmailChange,
    onMultiFactor,
    onFailure,
    provenEmail,
  });
  return (
    <TextContext.Provider value={text}>
      <FormContext.Provider value={form}>
        <Form {...rest} ref={ref} state={form.action} onSubmit={form.submit} className={cx('lk-form', className)}>
          {children ?? (
            <>
              <FormError />
              <EmailField />
              <PasswordField />
              <SubmitButton />
            </>
          )}
        </Form>
      </FormContext.Provider>
    </TextContext.Provider>
  );
});

/** The state of a credential form: its action, the two values, and the submission (checks, then the SDK call). */
function useCredentialForm(options: CredentialFormOptions) {
  const { kind, messages, noRedirect, onSuccess, onMultiFactor, onFailure, provenEmail } = options;
  const app = useApp();
  const action = useFormAction(['email', 'password'] as const, messages);
  const [email, setEmailValue] = useControllableState(options.email, options.defaultEmail ?? '', options.onEmailChange);
  const [password, setPasswordValue] = useState('');
  const submit = async () => {
    const credentials = { email: email.trim(), password, ...(noRedirect ? { noRedirect: true } : {}) };
    const done = await action.submit({
      check: () => validateCredentials(kind, { email, password }, messages),
      work: async () => {
        try {
          if (kind === 'sign-in') await app.signInWithCredential(credentials);
          else {
            const proven = !!provenEmail && provenEmail.toLowerCase() === credentials.email.toLowerCase();
            await app.signUpWithCredential({ ...credentials, ...(proven ? { verificationCallbackUrl: null } : {}) });
          }
        } catch (error) {
          const attempt = onMultiFactor ? multiFactorAttempt(error) : null;
          // The page replaces the form with the second step.
          if (attempt) return onMultiFactor?.(attempt);
          throw error;
        }
        onSuccess?.({ email: credentials.email });
      },
      // Unmet password rules belong to the password field; anything else to the form.
      refusal: (error) =>
        isPasswordRequirement(knownErrorCodeOf(error)) ? { password: errorText(error, messages) } : null,
      // The submit button was disabled while busy, which drops its focus: bring keyboard users back to the form.
      focusOnError: 'email',
      stayPending: !noRedirect,
    });
    if (!done) onFailure?.();
    return done;
  };
  const state: CredentialFormState = {
    kind,
    action,
    email,
    // The fields clear their own errors (`FormInputField`).
    setEmail: setEmailValue,
    password,
    setPassword: setPasswordValue,
  };
  return { ...state, submit };
}

/** Whether a refusal is about the password rules (too short, too long, …). */
export function isPasswordRequirement(code: KnownErrorCode | null): boolean {
  return code !== null && familiesOf(code).includes('PASSWORD_REQUIREMENTS_NOT_MET');
}

/**
 * Props of `FormError`: any `<div>` prop.
 *
 * @example
 * ```tsx
 * <FormError className="my-error" />
 * ```
 */
export type FormErrorProps = Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'role'>;

/**
 * The form-level error (a refusal from the service), announced by its
 * `role="alert"` region (always present, empty while there is no error).
 * Other props and the ref go to that region.
 *
 * @example
 * ```tsx
 * <CredentialForm kind="sign-up"><FormError />...</CredentialForm>
 * ```
 */
export const FormError = forwardRef<HTMLDivElement, FormErrorProps>(function FormError(props, ref) {
  useFormContext('FormError');
  return <FormAlert {...props} ref={ref} />;
});

/**
 * Props of `EmailField` (and the base of `PasswordField`'s): the label and
 * hint, and any `<input>` prop but its value and type (the form owns them).
 *
 * @example
 * ```tsx
 * <EmailField label="Work e-mail" placeholder="you@company.com" autoFocus />
 * ```
 */
export interface FieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'defaultValue' | 'children'> {
  /** Visible label (default: the `emailLabel` / `passwordLabel` labels). */
  label?: ReactNode;
  /** Help text under the field. */
  hint?: ReactNode;
}

/**
 * The labelled e-mail field of a `CredentialForm`, its error tied to the
 * input. Other props and the ref go to the `<input>`.
 *
 * @example
 * ```tsx
 * <EmailField label="E-mail address" placeholder="you@example.com" />
 * ```
 */
export const EmailField = forwardRef<HTMLInputElement, FieldProps>(function EmailField(props, ref) {
  const { email, setEmail } = useFormContext('EmailField');
  return <FormInputField required {...props} ref={ref} value={email} onValueChange={setEmail} />;
});

/**
 * Props of `PasswordField`: those of `EmailField`, plus the visibility of the
 * password (controlled or not, as on `PasswordInput`).
 *
 * @example
 * ```tsx
 * <PasswordField hint={null} />
 * ```
 */
export interface PasswordFieldProps
  extends FieldProps,
    Pick<PasswordInputProps, 'visible' | 'defaultVisible' | 'onVisibleChange' | 'toggleLabels'> {}

/**
 * The labelled password field of a `CredentialForm`, with a show/hide toggle;
 * sign-up forms show the length rule as a hint unless `hint` says otherwise
 * (`null` for none). Other props and the ref go to the `<input>`.
 *
 * @example
 * ```tsx
 * <PasswordField label="Choose a password" hint="Eight characters or more." />
 * ```
 */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(function PasswordField(
  { label, hint, ...rest },
  ref,
) {
  const { kind, password, setPassword } = useFormContext('PasswordField');
  const labels = useLabels(credentialLabels);
  const lengthRule = kind === 'sign-up' ? labels.newPasswordHint({ minLength: constants.passwordMinLength }) : null;
  return (
    <FormInputField
      input={PasswordInput}
      field="password"
      name="password"
      autoComplete={kind === 'sign-up' ? 'new-password' : 'current-password'}
      required
      {...rest}
      ref={ref}
      label={label ?? labels.passwordLabel}
      hint={hint === undefined ? lengthRule : hint}
      value={password}
      onValueChange={setPassword}
    />
  );
});

/**
 * Props of `SubmitButton`: its texts and any `<button>` prop but `type`.
 *
 * @example
 * ```tsx
 * <SubmitButton busyChildren="Checking…">Continue</SubmitButton>
 * ```
 */
export interface SubmitButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** Label (default: the `signInSubmit` / `signUpSubmit` labels). */
  children?: ReactNode;
  /** Label while the form is busy (default: the `signInBusy` / `signUpBusy` labels). */
  busyChildren?: ReactNode;
}

/**
 * The submit button of a `CredentialForm`; disabled and `aria-busy` while the
 * service answers and while the SDK redirects. Other props and the ref go to
 * the `<button>`.
 *
 * @example
 * ```tsx
 * <SubmitButton busyChildren="One moment…">Continue</SubmitButton>
 * ```
 */
export const SubmitButton = forwardRef<HTMLButtonElement, SubmitButtonProps>(function SubmitButton(
  { children, busyChildren, ...rest },
  ref,
) {
  const { kind } = useFormContext('SubmitButton');
  const labels = useLabels(credentialLabels);
  return (
    <BusyButton
      {...rest}
      ref={ref}
      busyChildren={busyChildren ?? (kind === 'sign-in' ? labels.signInBusy : labels.signUpBusy)}
    >
      {children ?? (kind === 'sign-in' ? labels.signInSubmit : labels.signUpSubmit)}
    </BusyButton>
  );
});
