'use client';
/** `Spinner`: the small rotating ring Latchkey components show while they wait. */
import { forwardRef, type HTMLAttributes } from 'react';
import { cx } from './internal/root-props.js';

/**
 * Props of `Spinner`: any `<span>` prop (`className`, `style`…).
 *
 * @example
 * ```tsx
 * const props: SpinnerProps = { className: 'my-spinner' };
 * ```
 */
export type SpinnerProps = HTMLAttributes<HTMLSpanElement>;

/**
 * A decorative rotating ring (hidden from assistive technology), sized by the
 * font and coloured by `currentColor`; it slows down under
 * `prefers-reduced-motion`. Pair it with text in a `role="status"` element.
 * Other props and the ref go to its `<span>`.
 *
 * @example
 * ```tsx
 * <p role="status">
 *   <Spinner /> Loading…
 * </p>
 * ```
 */
export const Spinner = forwardRef<HTMLSpanElement, SpinnerProps>(function Spinner({ className, ...rest }, ref) {
  return <span aria-hidden="true" {...rest} ref={ref} className={cx('lk-spinner', className)} />;
});
