/** The e-mail `<input>` of every form of the kit. */
import { forwardRef, type InputHTMLAttributes } from 'react';
import { commonLabels } from './common-labels.js';
import { cx } from './root-props.js';
import { useLabels } from './text.js';

/**
 * An `<input type="email">` with what every e-mail field needs: the `email`
 * name and autocomplete, the e-mail keyboard, no capitalisation or spell
 * check, the labels' placeholder unless given another. Other
 * props (value, handlers, `required`, the field's control props) and the
 * ref go to the input.
 */
export const EmailInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function EmailInput(
  { className, placeholder, ...rest },
  ref,
) {
  const labels = useLabels(commonLabels);
  return (
    <input
      name="email"
      autoComplete="email"
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      placeholder={placeholder ?? labels.emailPlaceholder}
      {...rest}
      ref={ref}
      className={cx('lk-input', className)}
      type="email"
    />
  );
});
