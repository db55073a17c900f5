/**
 * A labelled one-field form (a team's name, an address to invite) with its
 * outcome: the Teams section's forms and the team switcher's "create a team".
 */
import { useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText, formMessage } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { teamLabels } from './team-labels.js';

/** A labelled one-field form; `onSubmit` answers what to say once it is done. */
export function OneFieldForm(props: {
  label: string;
  submit: string;
  initial?: string;
  email?: boolean;
  optional?: boolean;
  onSubmit: (value: string) => Promise<string>;
}) {
  const labels = useLabels(teamLabels);
  const messages = useMessages();
  const [value, setValue] = useState(props.initial ?? '');
  const action = useFormAction(['value'] as const);
  const onSubmit = async () => {
    const given = value.trim();
    const done = await action.submit({
      check: () => ({
        value:
          given || props.optional
            ? undefined
            : props.email
              ? formMessage('EMAIL_REQUIRED', messages)
              : labels.accountTeamNameRequired,
      }),
      work: () => props.onSubmit(given),
      // The service's refusal is about the one field: it shows there.
      refusal: (error) => ({ value: errorText(error, messages) }),
    });
    if (done && props.initial === undefined) setValue('');
  };
  return (
    <Form state={action} onSubmit={onSubmit} className="lk-settings-form lk-settings-inline-form">
      <FormInputField
        field="value"
        label={props.label}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          if (action.outcome) action.setOutcome(null);
        }}
        {...(props.email ? {} : { input: 'input', className: 'lk-input', maxLength: 256, required: !props.optional })}
      />
      <BusyButton block={false}>{props.submit}</BusyButton>
      <OutcomeNotice />
    </Form>
  );
}
