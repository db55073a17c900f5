'use client';
/**
 * The one alert region of the kit, and the outcome of an action (a success
 * in a `role="status"` region, an error in the alert region). Regions are
 * always present (empty when there is nothing to say), so screen readers
 * announce what appears in them.
 */
import { forwardRef, type HTMLAttributes, type ReactNode } from 'react';
import { Icon } from '../internal/icon.js';
import { cx } from '../internal/root-props.js';
import { useFormContext } from './form.js';
import type { Outcome } from './use-form-action.js';

export interface FormAlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'role'> {
  /** What to say (default: the nearest form's error). */
  message?: ReactNode;
}

/** A `role="alert"` region; inside a `Form` it says the form's error and is what describes the form. */
export const FormAlert = forwardRef<HTMLDivElement, FormAlertProps>(function FormAlert(
  { message, className, id, ...rest },
  ref,
) {
  const form = useFormContext();
  const outcome = form?.action.outcome;
  const shown = message ?? (outcome?.kind === 'error' ? outcome.text : null);
  return (
    <div {...rest} ref={ref} className={cx('lk-alert-region', className)} role="alert" id={id ?? form?.alertId}>
      {shown ? (
        <p className="lk-alert">
          <Icon name="alert" size={18} className="lk-alert-icon" />
          <span>{shown}</span>
        </p>
      ) : null}
    </div>
  );
});

/** An action's outcome (default: the nearest form's): a success in a status region, an error in the alert region. */
export function OutcomeNotice({ outcome: given, id }: { outcome?: Outcome; id?: string }) {
  const form = useFormContext();
  const outcome = given === undefined ? form?.action.outcome : given;
  return (
    <>
      <div className="lk-notice-region" role="status">
        {outcome?.kind === 'success' ? (
          <p className="lk-notice lk-notice-success">
            <Icon name="check" size={16} className="lk-notice-icon" />
            <span>{outcome.text}</span>
          </p>
        ) : null}
      </div>
      <FormAlert id={id} message={outcome?.kind === 'error' ? outcome.text : null} />
    </>
  );
}
