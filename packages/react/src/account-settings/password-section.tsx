/**
 * The Password section: change it (current, new, confirmation) when the user
 * has one, set it (new, confirmation) when they sign in another way. The
 * success message stays when setting a password turns the form into the
 * change form.
 */
import type { CurrentUser } from '@latchkey/js';
import { constants, familiesOf, messageFor } from '@latchkey/protocol';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { PasswordInput } from '../credential/password-input.js';
import { errorText, knownErrorCodeOf } from '../internal/error-text.js';
import { Field } from '../internal/field.js';
import { useLabels, useMessages } from '../internal/text.js';
import type { LatchkeyLabels } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';
import { Spinner } from '../spinner.js';
import { useUser } from '../use-user.js';
import { OutcomeNotice, SettingsBlock, useAction } from './settings-parts.js';

type PasswordFieldName = 'current' | 'next' | 'confirm';
type PasswordErrors = Partial<Record<PasswordFieldName, string>>;

/** The Password section's content. */
export function PasswordSection() {
  const user = useUser({ or: 'redirect' });
  const labels = useLabels();
  const action = useAction();
  return (
    <SettingsBlock
      title={user.hasPassword ? labels.accountPasswordChangeTitle : labels.accountPasswordSetTitle}
      description={user.hasPassword ? labels.accountPasswordChangeDescription : labels.accountPasswordSetDescription}
    >
      {/* Keyed by the mode, so setting a password starts the change form empty. */}
      <PasswordForm key={user.hasPassword ? 'change' : 'set'} user={user} action={action} />
      <OutcomeNotice outcome={action.outcome} />
    </SettingsBlock>
  );
}

function PasswordForm({ user, action }: { user: CurrentUser; action: ReturnType<typeof useAction> }) {
  const labels = useLabels();
  const messages = useMessages();
  const change = user.hasPassword;
  const [values, setValues] = useState({ current: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<PasswordErrors>({});
  const refs: Record<PasswordFieldName, RefObject<HTMLInputElement | null>> = {
    current: useRef<HTMLInputElement>(null),
    next: useRef<HTMLInputElement>(null),
    confirm: useRef<HTMLInputElement>(null),
  };
  const { busy, outcome, setOutcome, run } = action;

  const set = (name: PasswordFieldName, value: string) => {
    setValues((old) => ({ ...old, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest);
    if (outcome) setOutcome(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validatePasswords(change, values, labels, messages);
    const first = firstError(found);
    if (first) {
      setErrors(found);
      refs[first].current?.focus();
      return;
    }
    setErrors({});
    let refused: PasswordErrors = {};
    const done = await run(
      async () => {
        if (change) await user.updatePassword({ oldPassword: values.current, newPassword: values.next });
        else await user.setPassword({ password: values.next });
        return change ? labels.accountPasswordChanged : labels.accountPasswordSet;
      },
      (error) => {
        refused = fieldOfRefusal(error, labels, messages);
        return firstError(refused) ? null : errorText(error, messages);
      },
    );
    if (done) {
      setValues({ current: '', next: '', confirm: '' });
      return;
    }
    const field = firstError(refused);
    if (field) {
      // The refusal belongs to one field: show it there, not twice.
      setOutcome(null);
      setErrors(refused);
      refs[field].current?.focus();
    }
  };

  const fieldError = (name: PasswordFieldName) => errors[name];
  const input = (name: PasswordFieldName, label: string, autoComplete: string, hint?: string) => (
    <Field label={label} error={fieldError(name)} hint={hint}>
      {(control) => (
        <PasswordInput
          {...control}
          ref={refs[name]}
          name={`${name}Password`}
          autoComplete={autoComplete}
          required
          value={values[name]}
          onChange={(event) => set(name, event.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form className="lk-settings-form" noValidate onSubmit={onSubmit}>
      {change ? input('current', labels.accountCurrentPasswordLabel, 'current-password') : null}
      {input(
        'next',
        labels.accountNewPasswordLabel,
        'new-password',
        labels.newPasswordHint({ minLength: constants.passwordMinLength }),
      )}
      {input('confirm', labels.accountConfirmPasswordLabel, 'new-password')}
      <div className="lk-settings-actions">
        <button type="submit" className="lk-button lk-button-primary" disabled={busy} aria-busy={busy}>
          {busy ? <Spinner /> : null}
          <span>
            {busy
              ? labels.accountSaving
              : change
                ? labels.accountPasswordChangeSubmit
                : labels.accountPasswordSetSubmit}
          </span>
        </button>
      </div>
    </form>
  );
}

/** The checks made before calling the service (the service's own length limits). */
function validatePasswords(
  change: boolean,
  values: { current: string; next: string; confirm: string },
  labels: LatchkeyLabels,
  messages: LatchkeyMessages | undefined,
): PasswordErrors {
  const errors: PasswordErrors = {};
  if (change && !values.current) errors.current = labels.accountCurrentPasswordRequired;
  if (!values.next) errors.next = labels.accountNewPasswordRequired;
  else if (values.next.length < constants.passwordMinLength) {
    errors.next = messageFor('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength }, messages);
  } else if (values.next.length > constants.passwordMaxLength) {
    errors.next = messageFor('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength }, messages);
  }
  if (!errors.next && values.confirm !== values.next) errors.confirm = labels.accountPasswordsDiffer;
  return errors;
}

/**
 * The field a refusal of the service belongs to: a wrong current password
 * (`PASSWORD_CONFIRMATION_MISMATCH`, whose catalogue wording speaks of a
 * confirmation) on the current password, unmet requirements on the new one.
 */
function fieldOfRefusal(
  error: unknown,
  labels: LatchkeyLabels,
  messages: LatchkeyMessages | undefined,
): PasswordErrors {
  const code = knownErrorCodeOf(error);
  if (code === 'PASSWORD_CONFIRMATION_MISMATCH') {
    return {
      current: messages?.PASSWORD_CONFIRMATION_MISMATCH
        ? errorText(error, messages)
        : labels.accountCurrentPasswordWrong,
    };
  }
  if (code && familiesOf(code).includes('PASSWORD_REQUIREMENTS_NOT_MET')) return { next: errorText(error, messages) };
  return {};
}

function firstError(errors: PasswordErrors): PasswordFieldName | undefined {
  return (['current', 'next', 'confirm'] as const).find((name) => errors[name]);
}
