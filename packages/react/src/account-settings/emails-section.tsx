/**
 * The E-mails section: the user's addresses with their badges (primary,
 * verified, used for sign-in), what can be done to each (verify, make
 * primary, use for sign-in or not, remove after a confirmation) and a form to
 * add one. Errors show on the row or the form they belong to.
 */
import type { ContactChannel } from '@latchkey/js';
import { useRef, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText, formMessage } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { EmailRow } from './email-row.js';
import { SettingsBlock, SettingsList } from './settings-parts.js';

/** The E-mails section's content. */
export function EmailsSection() {
  const labels = useLabels(accountSettingsLabels);
  // Signed-out visitors go to sign-in like on the other sections.
  useUser({ or: 'redirect' });
  const app = useApp();
  const channels = useAppData('contactChannels', { suspend: false });
  return (
    <>
      <SettingsBlock
        className="lk-settings-block-wide"
        title={labels.accountEmailsListTitle}
        description={labels.accountEmailsListDescription}
      >
        <SettingsList
          state={channels}
          reload={() => app.load('contactChannels')}
          label={labels.accountEmailsListTitle}
          loading={labels.accountEmailsLoading}
          failed={labels.accountEmailsLoadFailed}
          empty={labels.accountEmailsEmpty}
        >
          {(items, onRemoved) =>
            sortChannels(items).map((channel) => <EmailRow key={channel.id} channel={channel} onRemoved={onRemoved} />)
          }
        </SettingsList>
      </SettingsBlock>
      <SettingsBlock title={labels.accountEmailAddTitle} description={labels.accountEmailAddDescription}>
        <AddEmailForm />
      </SettingsBlock>
    </>
  );
}

/** The primary address first, then in the service's order. */
function sortChannels(channels: readonly ContactChannel[]): ContactChannel[] {
  return [...channels].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
}

function AddEmailForm() {
  const labels = useLabels(accountSettingsLabels);
  const messages = useMessages();
  const user = useUser({ or: 'redirect' });
  const [value, setValue] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const action = useFormAction(['email'] as const);

  const onSubmit = async () => {
    const email = value.trim();
    const done = await action.submit({
      // The browser's own check of type="email" (the form is noValidate, so nothing pops up).
      check: () => {
        const invalid = !email ? 'EMAIL_REQUIRED' : inputRef.current?.validity.typeMismatch ? 'EMAIL_INVALID' : null;
        return { email: invalid ? formMessage(invalid, messages) : undefined };
      },
      work: async () => {
        await user.createContactChannel({ value: email, type: 'email', usedForAuth: false });
        return labels.accountEmailAdded({ email });
      },
      // The service's refusal is about the one field: it shows there.
      refusal: (error) => ({ email: errorText(error, messages) }),
    });
    if (done) setValue('');
  };

  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form lk-settings-inline-form">
      <FormInputField
        ref={inputRef}
        label={labels.accountEmailAddLabel}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          if (action.outcome) action.setOutcome(null);
        }}
      />
      <BusyButton block={false} busyChildren={labels.accountEmailAddBusy}>
        {labels.accountEmailAddSubmit}
      </BusyButton>
      <OutcomeNotice />
    </Form>
  );
}
