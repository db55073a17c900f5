'use client';
/** `ForgotPassword`: asks for an e-mail and sends a password-reset link to it. */
import { forwardRef, type HTMLAttributes, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { emailError } from '../credential/validation.js';
import { FormAlert } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';
import { emailLabels } from './email-labels.js';

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
  const words = wordsOf(text, emailLabels);
  const action = useFormAction(['email'] as const, text.messages);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);

  const onSubmit = () =>
    action.submit({
      check: () => ({ email: emailError(email, text.messages) }),
      work: async () => {
        await app.sendForgotPasswordEmail(email.trim());
        setSent(true);
      },
      focusOnError: 'email',
    });

  const back = (
    <a className="lk-link" href={app.urls.signIn}>
      {words.backToSignIn}
    </a>
  );
  const page = sent ? (
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
      <Form state={action} onSubmit={onSubmit}>
        <FormAlert />
        <FormInputField required value={email} onValueChange={setEmail} />
        <BusyButton busyChildren={words.sendingBusy}>{words.forgotPasswordSubmit}</BusyButton>
      </Form>
    </AuthCard>
  );
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
