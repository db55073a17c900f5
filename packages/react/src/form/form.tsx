'use client';
/**
 * The form primitive: `Form` (the root, over one `useFormAction` state),
 * `FormField` (a labelled control whose error comes from that state),
 * `FormInputField` (the e-mail, password or text field on it), and the context
 * `FormAlert` and `SubmitButton` read. Every form of the kit is built from these.
 */
import {
  type ComponentType,
  createContext,
  type FormHTMLAttributes,
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type RefAttributes,
  useContext,
  useId,
} from 'react';
import { commonLabels } from '../internal/common-labels.js';
import { composeRefs } from '../internal/compose-refs.js';
import { EmailInput } from '../internal/email-input.js';
import { Field, type FieldControlProps, type FieldLayoutProps } from '../internal/field.js';
import { cx } from '../internal/root-props.js';
import { useLabels } from '../internal/text.js';
import type { FormAction } from './use-form-action.js';

interface FormContextValue {
  // biome-ignore lint/suspicious/noExplicitAny: a form of any fields
  action: FormAction<any>;
  /** The id of the form's alert region, which describes the form while it shows an error. */
  alertId: string;
}

const FormContext = createContext<FormContextValue | null>(null);

/** The nearest form's state and alert id, or `null` outside a `Form`. */
export function useFormContext(): FormContextValue | null {
  return useContext(FormContext);
}

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  /** The form's action state (`useFormAction`). */
  // biome-ignore lint/suspicious/noExplicitAny: a form of any fields
  state: FormAction<any>;
  /** Called on submit (the browser's own submission and validation are off). */
  onSubmit: () => unknown;
}

/** A `<form>` (class `lk-form` unless given another) running on `state`. */
export const Form = forwardRef<HTMLFormElement, FormProps>(function Form(
  { state: action, onSubmit, className, children, ...rest },
  ref,
) {
  const alertId = `${useId()}alert`;
  return (
    <FormContext.Provider value={{ action, alertId }}>
      <form
        aria-describedby={action.outcome?.kind === 'error' ? alertId : undefined}
        {...rest}
        ref={ref}
        className={cx(className ?? 'lk-form')}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        {children}
      </form>
    </FormContext.Provider>
  );
});

/** The props `FormField` gives its control: those of `Field`, and the ref that lets an error focus it. */
interface FormControlProps extends FieldControlProps {
  ref: (element: HTMLElement | null) => void;
}

export interface FormFieldProps extends Omit<FieldLayoutProps, 'children' | 'error'> {
  /** The field's name in the form's errors. */
  name: string;
  children: (control: FormControlProps) => ReactNode;
}

/** A labelled field of the nearest `Form`: its error under it, tied to the control; the control gets the focus on error. */
export function FormField({ name, children, ...layout }: FormFieldProps) {
  const form = useFormContext();
  if (!form) throw new Error('<FormField> must be placed inside <Form>.');
  const { action } = form;
  return (
    <Field {...layout} error={action.errors[name]}>
      {(control) => children({ ...control, ref: action.ref(name) })}
    </Field>
  );
}

export interface FormInputFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'defaultValue' | 'children'> {
  /**
   * The control (default `EmailInput`, or a plain `<input>`); it gets the other
   * props and the ref. A plain `<input>` takes its look from `className` (the
   * kit's is `lk-input`).
   */
  input?: ComponentType<InputHTMLAttributes<HTMLInputElement> & RefAttributes<HTMLInputElement>> | 'input';
  /** The field's name in the form's errors (default `'email'`). */
  field?: string;
  /** Visible label (default: the `emailLabel` label). */
  label?: ReactNode;
  hint?: ReactNode;
  value: string;
  /** The new value, after `onChange`; the field's error goes as well. */
  onValueChange: (value: string) => void;
}

/**
 * A labelled, controlled input of the nearest `Form`, its error under it:
 * the e-mail field of every form of the kit unless `input`, `field` and
 * `label` say otherwise (the password field, a team's name). Other props and
 * the ref go to the control.
 */
export const FormInputField = forwardRef<HTMLInputElement, FormInputFieldProps>(function FormInputField(
  {
    label,
    hint,
    id,
    onChange,
    'aria-describedby': describedBy,
    field = 'email',
    onValueChange,
    input: Input = EmailInput,
    ...rest
  },
  ref,
) {
  const action = useFormContext()?.action;
  const labels = useLabels(commonLabels);
  return (
    <FormField name={field} id={id} label={label ?? labels.emailLabel} hint={hint} describedBy={describedBy}>
      {(control) => (
        <Input
          {...rest}
          {...control}
          ref={composeRefs(ref, control.ref)}
          onChange={(event) => {
            onChange?.(event);
            onValueChange(event.target.value);
            action?.edited(field);
          }}
        />
      )}
    </FormField>
  );
});
