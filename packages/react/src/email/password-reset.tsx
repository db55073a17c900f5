/** `PasswordReset`: the page a password-reset link opens (`?code=`): a new password, twice. */
import { constants, familiesOf } from '@latchkey/protocol';
import { type FormEvent, forwardRef, type HTMLAttributes, type ReactNode, useId, useRef, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { PasswordInput } from '../credential/password-input.js';
import { newPasswordError } from '../credential/validation.js';
import { errorText, formMessage, knownErrorCodeOf } from '../internal/error-text.js';
import { Field } from '../internal/field.js';
import { Icon } from '../internal/icon.js';
import { TextContext, useText } from '../internal/text.js';
import { codeFromUrl, useOnce } from '../internal/use-once.js';
import type { LatchkeyTranslation } from '../labels.js';
import { useApp } from '../provider.js';

import { BusyButton, FormAlert } from './form-parts.js';
import { Checking, LinkFailedCard, type LinkProblem, LinkProblemCard, linkProblemOf } from './link-problem.js';

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

interface Errors {
  password?: string;
  confirm?: string;
  form?: string;
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
  { code: givenCode, labels, messages, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const words = text.labels;
  const code = givenCode ?? codeFromUrl();
  const [check, recheck] = useOnce(code && `reset-check:${code}`, () => app.verifyPasswordResetCode(code ?? ''));
  const formErrorId = `${useId()}error`;
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState<'idle' | 'saving' | 'done'>('idle');
  const [usedUp, setUsedUp] = useState<LinkProblem | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (status !== 'idle' || !code) return;
    const found: Errors = { password: newPasswordError(password, text.messages) };
    if (!found.password && confirm !== password) found.confirm = formMessage('PASSWORDS_DIFFERENT', text.messages);
    setErrors(found);
    if (found.password) return passwordRef.current?.focus();
    if (found.confirm) return confirmRef.current?.focus();
    setStatus('saving');
    try {
      await app.resetPassword({ code, password });
      setStatus('done');
    } catch (error) {
      setStatus('idle');
      const problem = linkProblemOf(error);
      if (problem) return setUsedUp(problem);
      const code = knownErrorCodeOf(error);
      const message = errorText(error, text.messages);
      if (code && familiesOf(code).includes('PASSWORD_REQUIREMENTS_NOT_MET')) setErrors({ password: message });
      else setErrors({ form: message });
      passwordRef.current?.focus();
    }
  };

  const problem = usedUp ?? (code ? linkProblemOf(check.error) : 'invalid');
  let page: ReactNode;
  if (problem) {
    page = (
      <LinkProblemCard {...rest} ref={ref} problem={problem}>
        <a className="lk-button lk-button-primary lk-button-block" href={app.urls.forgotPassword}>
          {words.requestNewLink}
        </a>
        <a className="lk-button lk-button-secondary lk-button-block" href={app.urls.signIn}>
          {words.backToSignIn}
        </a>
      </LinkProblemCard>
    );
  } else if (status === 'done') {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="check" size={22} />}
        title={words.passwordResetDoneTitle}
        subtitle={<span role="status">{words.passwordResetDoneText}</span>}
      >
        <div className="lk-actions">
          <a className="lk-button lk-button-primary lk-button-block" href={app.urls.signIn}>
            {words.signInSubmit}
          </a>
        </div>
      </AuthCard>
    );
  } else if (check.status === 'failed') {
    page = (
      <LinkFailedCard {...rest} ref={ref} title={words.passwordResetTitle} error={check.error} onRetry={recheck} />
    );
  } else if (check.status === 'pending') {
    page = (
      <AuthCard {...rest} ref={ref} icon={<Icon name="key" size={22} />} title={words.passwordResetTitle}>
        <Checking>{words.passwordResetChecking}</Checking>
      </AuthCard>
    );
  } else {
    page = (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="key" size={22} />}
        title={words.passwordResetTitle}
        subtitle={words.passwordResetSubtitle}
      >
        <form
          className="lk-form"
          noValidate
          onSubmit={onSubmit}
          aria-describedby={errors.form ? formErrorId : undefined}
        >
          <FormAlert id={formErrorId} message={errors.form} />
          <Field
            label={words.newPasswordLabel}
            hint={words.newPasswordHint({ minLength: constants.passwordMinLength })}
            error={errors.password}
          >
            {(control) => (
              <PasswordInput
                {...control}
                ref={passwordRef}
                name="new-password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setErrors(({ password: _, ...others }) => others);
                }}
              />
            )}
          </Field>
          <Field label={words.confirmPasswordLabel} error={errors.confirm}>
            {(control) => (
              <PasswordInput
                {...control}
                ref={confirmRef}
                name="confirm-password"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(event) => {
                  setConfirm(event.target.value);
                  setErrors(({ confirm: _, ...others }) => others);
                }}
              />
            )}
          </Field>
          <BusyButton busy={status === 'saving'} busyLabel={words.passwordResetBusy}>
            {words.passwordResetSubmit}
          </BusyButton>
        </form>
      </AuthCard>
    );
  }
  return <TextContext.Provider value={text}>{page}</TextContext.Provider>;
});
