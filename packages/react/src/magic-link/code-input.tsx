'use client';
/**
 * `CodeInput`: the field for the six-character code of a sign-in e-mail.
 * One input (so paste, autofill of one-time codes, screen readers and the
 * keyboard work as with any field), drawn as six letter-spaced cells.
 */
import { forwardRef, type InputHTMLAttributes } from 'react';
import { cx } from '../internal/root-props.js';
import { useControllableState } from '../internal/use-controllable-state.js';
import { normalizeCode } from './normalize-code.js';

/**
 * Props of `CodeInput`: the value (controlled with `value` +
 * `onValueChange`, or uncontrolled with `defaultValue`), the code length,
 * `onComplete`, and any other `<input>` prop.
 *
 * @example
 * ```tsx
 * <CodeInput aria-label="Code" value={code} onValueChange={setCode} onComplete={submit} />
 * ```
 */
export interface CodeInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'type' | 'maxLength'> {
  value?: string;
  defaultValue?: string;
  /** Hears every change, with the value normalised (`normalizeCode`). */
  onValueChange?: (value: string) => void;
  /** Called when the value reaches `length` characters, typed or pasted. */
  onComplete?: (value: string) => void;
  /** Characters in the code (default 6). */
  length?: number;
  /** How a typed or pasted value is read (default `normalizeCode`; `digitsOnly` for authenticator codes). */
  normalize?: (typed: string, length: number) => string;
}

/**
 * A code field that takes the code however it is typed or pasted (any case,
 * with spaces or dashes) and holds it normalised. Give it a label (a
 * `<label htmlFor>` or `aria-label`). Other props and the ref go to the `<input>`.
 *
 * @example
 * ```tsx
 * <label htmlFor="code">Code from the e-mail</label>
 * <CodeInput id="code" onComplete={(code) => app.signInWithMagicLink(code + nonce)} />
 * ```
 */
export const CodeInput = forwardRef<HTMLInputElement, CodeInputProps>(function CodeInput(
  {
    value,
    defaultValue = '',
    onValueChange,
    onComplete,
    length = 6,
    normalize = normalizeCode,
    className,
    onChange,
    ...rest
  },
  ref,
) {
  const [code, setCode] = useControllableState(value, defaultValue, onValueChange);
  return (
    <input
      autoComplete="one-time-code"
      autoCapitalize="characters"
      autoCorrect="off"
      spellCheck={false}
      inputMode="text"
      {...rest}
      ref={ref}
      type="text"
      className={cx('lk-input lk-code-input', className)}
      value={code}
      onChange={(event) => {
        onChange?.(event);
        const next = normalize(event.target.value, length);
        setCode(next);
        if (next.length === length && next !== code) onComplete?.(next);
      }}
    />
  );
});
