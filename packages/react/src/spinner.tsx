/** `Spinner`: the small rotating ring Latchkey components show while they wait. */

/**
 * A decorative rotating ring (hidden from assistive technology), sized by the
 * font and coloured by `currentColor`; it slows down under
 * `prefers-reduced-motion`. Pair it with text in a `role="status"` element.
 *
 * @example
 * ```tsx
 * <p role="status">
 *   <Spinner /> Loading…
 * </p>
 * ```
 */
export function Spinner() {
  return <span className="lk-spinner" aria-hidden="true" />;
}
