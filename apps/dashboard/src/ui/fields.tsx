/**
 * The dashboard's form parts over the kit's (`@latchkey/react`): a plain
 * text field, and the notice of what a form saved.
 */
import { type FormAction, FormInputField, type FormInputFieldProps } from '@latchkey/react';
import { forwardRef } from 'react';

/** A labelled text input of the nearest `Form`: the kit's field with its input look, no autofill unless asked. */
export const TextField = forwardRef<HTMLInputElement, Omit<FormInputFieldProps, 'input'>>(
  function TextField(props, ref) {
    return <FormInputField input="input" className="lk-input" autoComplete="off" {...props} ref={ref} />;
  },
);

/** What the form's last action saved, in a status region beside its button; nothing until it did (or while `hidden`). */
export function SavedNotice({
  form,
  hidden = false,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: a form of any fields
  form: FormAction<any>;
  hidden?: boolean;
}) {
  return form.outcome?.kind === 'success' && !hidden ? (
    <span className="ld-muted" role="status">
      {form.outcome.text}
    </span>
  ) : null;
}
