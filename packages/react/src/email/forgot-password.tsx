/** `ForgotPassword`: asks for an e-mail and sends a password-reset link to it. */
import { type FormEvent, forwardRef, type HTMLAttributes, useId, useRef, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { emailError } from '../credential/validation.js';
import { EmailInput } from '../internal/email-input.js';
import { errorText } from '../internal/error-text.js';
import { Field } from '../internal/field.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { BusyButton, FormAlert } from './form-parts.js';

/**
 * Props of `ForgotPassword`: its words and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <ForgotPassword labels={{ forgotPasswordSubmit: 'E-mail me a link' }} />
 * ```
 */
export interface ForgotPasswordProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {}

/**
 * The forgot-password page: an e-mail field; on submit the SDK mails a reset
 * link (to the app's password-reset page) and the card says "Check your
 * inbox", the same whether or not an account uses the address. Links back to
 * sign-in. Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/forgot-password (the Handler does this for you)
 * <LatchkeyProvider app={app}><ForgotPassword /></LatchkeyProvider>
 * ```
 */
export const ForgotPassword = forwardRef<HTMLDivElement, ForgotPasswordProps>(function ForgotPassword(
  { labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = text.labels;
  const formErrorId = `${useId()}error`;
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (status !== 'idle') return;
    const problem = emailError(email, text.messages);
    setFieldError(problem);
    setFormError(undefined);
    if (problem) return input.current?.focus();
    setStatus('sending');
    try {
      await app.sendForgotPasswordEmail(email.trim());
      setStatus('sent');
    } catch (error) {
      setStatus('idle');
      setFormError(errorText(error, text.messages));
      input.current?.focus();
    }
  };

  const back = (
    <a className="lk-link" href={app.urls.signIn}>
      {words.backToSignIn}
    </a>
  );
  const page =
    status === 'sent' ? (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="mail" size={22} />}
        title={words.checkInboxTitle}
        subtitle={<span role="status">{words.forgotPasswordSent({ email: email.trim() })}</span>}
        footer={back}
      />
    ) : (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="key" size={22} />}
        title={words.forgotPasswordTitle}
        subtitle={words.forgotPasswordSubtitle}
        footer={back}
      >
        <form className="lk-form" noValidate onSubmit={onSubmit} aria-describedby={formError ? formErrorId : undefined}>
          <FormAlert id={formErrorId} message={formError} />
          <Field label={words.emailLabel} error={fieldError}>
            {(control) => (
              <EmailInput
                {...control}
                ref={input}
                required
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setFieldError(undefined);
                }}
              />
            )}
          </Field>
          <BusyButton busy={status === 'sending'} busyLabel={words.sendingBusy}>
            {words.forgotPasswordSubmit}
          </BusyButton>
        </form>
      </AuthCard>
    );
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
