/**
 * `Field`: what every form field shares. A label tied to the control, the
 * control itself (rendered by the caller), an error and a hint below it,
 * both tied to the control with `aria-describedby`; an error also sets
 * `aria-invalid`. The error comes first in the description, as it matters more.
 */
import { type ReactNode, useId } from 'react';
import { cx } from './root-props.js';

/** The props `Field` gives its control. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldLayoutProps {
  /** The control's id (default: a generated one). */
  id?: string | undefined;
  label: ReactNode;
  /** Help under the control; nothing when empty. */
  hint?: ReactNode;
  /** What is wrong with the value; nothing when empty. */
  error?: ReactNode;
  /** Other ids describing the control (e.g. the caller's own `aria-describedby`). */
  describedBy?: string | undefined;
  className?: string | undefined;
  /** Renders the control, given the props that label and describe it. */
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ id, label, hint, error, describedBy, className, children }: FieldLayoutProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const hasError = isShown(error);
  const hasHint = isShown(hint);
  const described = [hasError && errorId, hasHint && hintId, describedBy].filter(Boolean).join(' ');
  return (
    <div className={cx('lk-field', className)}>
      <label className="lk-label" htmlFor={controlId}>
        {label}
      </label>
      {children({
        id: controlId,
        'aria-invalid': hasError ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hasError ? (
        <p className="lk-field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      {hasHint ? (
        <p className="lk-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function isShown(node: ReactNode): boolean {
  return node !== undefined && node !== null && node !== false && node !== '';
}
