/**
 * What the account-settings sections share: the section frame (an `<h2>`
 * that takes focus when the section is chosen) and titled blocks inside it.
 * Their forms and buttons are the form kit's (`../form/`).
 */
import { forwardRef, type ReactNode, useId } from 'react';
import { cx } from '../internal/root-props.js';

interface SettingsSectionProps {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}

/** One section of the settings: a region named by its `<h2>`, which the navigation focuses. */
export const SettingsSection = forwardRef<HTMLHeadingElement, SettingsSectionProps>(function SettingsSection(
  { title, description, children },
  headingRef,
) {
  const titleId = useId();
  return (
    <section className="lk-settings-section" aria-labelledby={titleId}>
      <header className="lk-settings-section-header">
        <h2 className="lk-settings-section-title" id={titleId} tabIndex={-1} ref={headingRef}>
          {title}
        </h2>
        {description ? <p className="lk-settings-section-description">{description}</p> : null}
      </header>
      {children}
    </section>
  );
});

interface SettingsBlockProps {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled block of a section (display name, picture, the e-mail list, …), separated from the next by a rule. */
export function SettingsBlock({ title, description, children, className }: SettingsBlockProps) {
  return (
    <div className={cx('lk-settings-block', className)}>
      <div className="lk-settings-block-intro">
        <h3 className="lk-settings-block-title">{title}</h3>
        {description ? <p className="lk-settings-block-description">{description}</p> : null}
      </div>
      <div className="lk-settings-block-body">{children}</div>
    </div>
  );
}
