/**
 * `PasswordInput`: a password input with a show/hide toggle. The visibility
 * works controlled (`visible` + `onVisibleChange`) or uncontrolled
 * (`defaultVisible`).
 */
import { forwardRef, type InputHTMLAttributes } from 'react';
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
  /** Accessible names of the toggle; each should contain its visible text ("Show", "Hide"). */
  toggleLabels?: { show: string; hide: string };
}

/**
 * A password input with a show/hide toggle button.
 *
 * @example
 * ```tsx
 * <label htmlFor="pw">Password</label>
 * <PasswordInput id="pw" autoComplete="current-password" value={pw} onChange={(e) => setPw(e.target.value)} />
 * ```
 */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  {
    visible,
    defaultVisible = false,
    onVisibleChange,
    toggleLabels = { show: 'Show password', hide: 'Hide password' },
    className,
    id,
    ...inputProps
  },
  ref,
) {
  const [shown, setShown] = useControllableState(visible, defaultVisible, onVisibleChange);
  return (
    <div className="lk-password">
      <input
        {...inputProps}
        id={id}
        ref={ref}
        type={shown ? 'text' : 'password'}
        className={`lk-input lk-password-input${className ? ` ${className}` : ''}`}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
      />
      <button
        type="button"
        className="lk-password-toggle"
        aria-controls={id}
        aria-label={shown ? toggleLabels.hide : toggleLabels.show}
        onClick={() => setShown(!shown)}
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
});
