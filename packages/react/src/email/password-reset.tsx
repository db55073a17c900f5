'use client';
/** `PasswordReset`: the page a password-reset link opens (`?code=`): a new password, twice. */
import { constants } from '@latchkey/protocol';
import { forwardRef, type HTMLAttributes, useState } from 'react';
import { isPasswordRequirement } from '../credential/credential-form.js';
import { credentialLabels } from '../credential/credential-labels.js';
import { PasswordInput } from '../credential/password-input.js';
import { newPasswordError } from '../credential/validation.js';
import { FormAlert } from '../form/alert.js';
import { Form, FormField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText, formMessage, knownErrorCodeOf } from '../internal/error-text.js';
import { useText, wordsOf } from '../internal/text.js';
import type { LatchkeyTranslation } from '../labels.js';
import { LinkCodePage } from '../link-code/link-code-page.js';
import { useLinkCode } from '../link-code/use-link-code.js';
import { useApp } from '../provider.js';
import { emailLabels } from './email-labels.js';

/**
 * Props of `PasswordReset`: the code (default: the page's `?code=`), its
 * words, and any `<div>` prop for the page element.
 *
 * @example
 * ```tsx
 * <PasswordReset labels={{ passwordResetSubmit: 'Change password' }} />
 * ```
 */
export interface PasswordResetProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The code from the link; defaults to the `code` query parameter of the page. */
  code?: string;
}

/**
 * The password-reset page. It checks the link's code on arrival (without
 * using it) and says clearly when the link is missing, unknown, expired or
 * used, with a way to ask for a new one; otherwise it asks for the new
 * password twice (checked like sign-up's), sets it, and offers to sign in.
 * Other props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * // at /handler/password-reset (the Handler does this for you)
 * <LatchkeyProvider app={app}><PasswordReset /></LatchkeyProvider>
 * ```
 */
export const PasswordReset = forwardRef<HTMLDivElement, PasswordResetProps>(function PasswordReset(
  { code, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = wordsOf(text, credentialLabels, emailLabels);
  const link = useLinkCode({ code, name: 'reset-check', check: (given) => app.verifyPasswordResetCode(given) });
  const action = useFormAction(['password', 'confirm'] as const, text.messages);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const onSubmit = () =>
    action.submit({
      check: () => {
        const problem = newPasswordError(password, text.messages);
        if (problem || confirm === password) return { password: problem };
        return { confirm: formMessage('PASSWORDS_DIFFERENT', text.messages) };
      },
      work: async () => {
        try {
          await app.resetPassword({ code: link.code, password });
          link.done();
        } catch (error) {
          // A link used up meanwhile turns the page into the unusable-link card.
          if (!link.spent(error)) throw error;
        }
      },
      refusal: (error) =>
        isPasswordRequirement(knownErrorCodeOf(error)) ? { password: errorText(error, text.messages) } : null,
      focusOnError: 'password',
    });

  const passwordInput =
    (name: 'password' | 'confirm', value: string, set: (value: string) => void) => (control: object) => (
      <PasswordInput
        {...control}
        name={name === 'password' ? 'new-password' : 'confirm-password'}
        autoComplete="new-password"
        required
        value={value}
        onChange={(event) => {
          set(event.target.value);
          action.edited(name);
        }}
      />
    );

  return (
    <LinkCodePage
      {...rest}
      pageRef={ref}
      link={link}
      text={text}
      icon="key"
      title={words.passwordResetTitle}
      checking={words.passwordResetChecking}
      problemActions={
        <>
          <a className="lk-button lk-button-primary lk-button-block" href={app.urls.forgotPassword}>
            {words.requestNewLink}
          </a>
          <a className="lk-button lk-button-secondary lk-button-block" href={app.urls.signIn}>
            {words.backToSignIn}
          </a>
        </>
      }
      card={(step) => {
        if (step === 'done') {
          return {
            icon: 'check',
            title: words.passwordResetDoneTitle,
            subtitle: <span role="status">{words.passwordResetDoneText}</span>,
            body: (
              <div className="lk-actions">
                <a className="lk-button lk-button-primary lk-button-block" href={app.urls.signIn}>
                  {words.signInSubmit}
                </a>
              </div>
            ),
          };
        }
        if (step !== 'ready') return null;
        return {
          icon: 'key',
          title: words.passwordResetTitle,
          subtitle: words.passwordResetSubtitle,
          body: (
            <Form state={action} onSubmit={onSubmit}>
              <FormAlert />
              <FormField
                name="password"
                label={words.newPasswordLabel}
                hint={words.newPasswordHint({ minLength: constants.passwordMinLength })}
              >
                {passwordInput('password', password, setPassword)}
              </FormField>
              <FormField name="confirm" label={words.confirmPasswordLabel}>
                {passwordInput('confirm', confirm, setConfirm)}
              </FormField>
              <BusyButton busyChildren={words.passwordResetBusy}>{words.passwordResetSubmit}</BusyButton>
            </Form>
          ),
        };
      }}
    />
  );
});
