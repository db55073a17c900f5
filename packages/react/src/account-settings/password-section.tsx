/**
 * The Password section: change it (current, new, confirmation) when the user
 * has one, set it (new, confirmation) when they sign in another way. The
 * success message stays when setting a password turns the form into the
 * change form.
 */
import type { CurrentUser } from '@latchkey/js';
import { constants, familiesOf, messageFor } from '@latchkey/protocol';
import { useState } from 'react';
import { PasswordInput } from '../credential/password-input.js';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { type FormAction, useFormAction } from '../form/use-form-action.js';
import { errorText, knownErrorCodeOf } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import type { LabelsOf } from '../labels.js';
import type { LatchkeyMessages } from '../messages.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsBlock } from './settings-parts.js';

type PasswordFieldName = 'current' | 'next' | 'confirm';
type PasswordErrors = Partial<Record<PasswordFieldName, string>>;
const fields = ['current', 'next', 'confirm'] as const;

/** The Password section's content. */
export function PasswordSection() {
  const user = useUser({ or: 'redirect' });
  const labels = useLabels(accountSettingsLabels);
  const action = useFormAction(fields);
  return (
    <SettingsBlock
      title={user.hasPassword ? labels.accountPasswordChangeTitle : labels.accountPasswordSetTitle}
      description={user.hasPassword ? labels.accountPasswordChangeDescription : labels.accountPasswordSetDescription}
    >
      {/* Keyed by the mode, so setting a password starts the change form empty (the outcome stays). */}
      <PasswordForm key={user.hasPassword ? 'change' : 'set'} user={user} action={action} />
    </SettingsBlock>
  );
}

function PasswordForm({ user, action }: { user: CurrentUser; action: FormAction<PasswordFieldName> }) {
  const labels = useLabels(accountSettingsLabels);
  const messages = useMessages();
  const change = user.hasPassword;
  const [values, setValues] = useState({ current: '', next: '', confirm: '' });

  const set = (name: PasswordFieldName, value: string) => {
    setValues((old) => ({ ...old, [name]: value }));
    action.edited(name);
    if (action.outcome) action.setOutcome(null);
  };

  const onSubmit = async () => {
    const done = await action.submit({
      check: () => validatePasswords(change, values, labels, messages),
      work: async () => {
        if (change) await user.updatePassword({ oldPassword: values.current, newPassword: values.next });
        else await user.setPassword({ password: values.next });
        return change ? labels.accountPasswordChanged : labels.accountPasswordSet;
      },
      // A refusal that belongs to one field is shown there, not twice.
      refusal: (error) => fieldOfRefusal(error, labels, messages),
    });
    if (done) setValues({ current: '', next: '', confirm: '' });
  };

  const input = (name: PasswordFieldName, label: string, autoComplete: string, hint?: string) => (
    <FormField name={name} label={label} hint={hint}>
      {(control) => (
        <PasswordInput
          {...control}
          name={`${name}Password`}
          autoComplete={autoComplete}
          required
          value={values[name]}
          onChange={(event) => set(name, event.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form">
      {change ? input('current', labels.accountCurrentPasswordLabel, 'current-password') : null}
      {input(
        'next',
        labels.accountNewPasswordLabel,
        'new-password',
        labels.newPasswordHint({ minLength: constants.passwordMinLength }),
      )}
      {input('confirm', labels.accountConfirmPasswordLabel, 'new-password')}
      <div className="lk-settings-actions">
        <BusyButton block={false} busyChildren={labels.accountSaving}>
          {change ? labels.accountPasswordChangeSubmit : labels.accountPasswordSetSubmit}
        </BusyButton>
      </div>
      <OutcomeNotice />
    </Form>
  );
}

/** The checks made before calling the service (the service's own length limits). */
function validatePasswords(
  change: boolean,
  values: { current: string; next: string; confirm: string },
  labels: Readonly<LabelsOf<typeof accountSettingsLabels>>,
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
  labels: Readonly<LabelsOf<typeof accountSettingsLabels>>,
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
