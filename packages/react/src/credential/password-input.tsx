'use client';
/**
 * `PasswordInput`: a password input with a show/hide toggle. The visibility
 * works controlled (`visible` + `onVisibleChange`) or uncontrolled
 * (`defaultVisible`).
 */
import { forwardRef, type InputHTMLAttributes, useId } from 'react';
import { commonLabels } from '../internal/common-labels.js';
import { cx } from '../internal/root-props.js';
import { useLabels } from '../internal/text.js';
import { useControllableState } from '../internal/use-controllable-state.js';

/**
 * Props of `PasswordInput`: every `<input>` prop except `type`, plus the visibility.
 *
 * @example
 * ```tsx
 * <PasswordInput defaultVisible toggleLabels={{ show: 'Show code', hide: 'Hide code' }} />
 * ```
 */
export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Whether the password is shown (controlled). */
  visible?: boolean;
  /** Whether the password is shown at first (uncontrolled, default false). */
  defaultVisible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  /**
   * Accessible names of the toggle; each should contain its visible text
   * ("Show", "Hide"). Default: the `showPassword` and `hidePassword` labels.
   */
  toggleLabels?: { show: string; hide: string };
}

/**
 * A password input with a show/hide toggle button. Other props and the ref
 * go to the `<input>`.
 *
 * @example
 * ```tsx
 * <label htmlFor="pw">Password</label>
 * <PasswordInput id="pw" autoComplete="current-password" value={pw} onChange={(e) => setPw(e.target.value)} />
 * ```
 */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { visible, defaultVisible = false, onVisibleChange, toggleLabels, className, id, ...inputProps },
  ref,
) {
  const labels = useLabels(commonLabels);
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [shown, setShown] = useControllableState(visible, defaultVisible, onVisibleChange);
  const names = toggleLabels ?? { show: labels.showPassword, hide: labels.hidePassword };
  return (
    <div className="lk-password">
      <input
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        {...inputProps}
        id={inputId}
        ref={ref}
        type={shown ? 'text' : 'password'}
        className={cx('lk-input lk-password-input', className)}
      />
      <button
        type="button"
        className="lk-password-toggle"
        aria-controls={inputId}
        aria-label={shown ? names.hide : names.show}
        onClick={() => setShown(!shown)}
      >
        {shown ? labels.hidePasswordShort : labels.showPasswordShort}
      </button>
    </div>
  );
});
