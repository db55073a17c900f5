'use client';
/** The one submit button of the kit. */
import { type ButtonHTMLAttributes, forwardRef, type ReactNode } from 'react';
import { cx } from '../internal/root-props.js';
import { Spinner } from '../spinner.js';
import { useFormContext } from './form.js';

const variants = { primary: 'lk-button-primary', secondary: 'lk-button-secondary', danger: 'lk-button-danger' };

export interface BusyButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Busy: disabled, `aria-busy`, a spinner and `busyChildren` (default: the nearest form is pending). */
  busy?: boolean;
  /** Label while busy (default: `children`). */
  busyChildren?: ReactNode;
  /** Full width, as on the auth cards (default `true`). */
  block?: boolean;
  /** Its weight (default `'primary'`). */
  variant?: keyof typeof variants;
}

/**
 * A button (primary unless told otherwise), `type="submit"` unless told otherwise; while busy it is
 * disabled and `aria-busy`, with a spinner beside its busy label. Other props
 * and the ref go to the `<button>`.
 */
export const BusyButton = forwardRef<HTMLButtonElement, BusyButtonProps>(function BusyButton(
  { busy, busyChildren, block = true, variant = 'primary', children, className, disabled, type = 'submit', ...rest },
  ref,
) {
  const form = useFormContext();
  const isBusy = busy ?? form?.action.busy ?? false;
  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      className={cx('lk-button', variants[variant], block && 'lk-button-block', className)}
      disabled={isBusy || disabled}
      aria-busy={isBusy}
    >
      {isBusy ? <Spinner /> : null}
      <span>{isBusy ? (busyChildren ?? children) : children}</span>
    </button>
  );
});
