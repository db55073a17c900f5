/**
 * What the account-settings sections share: the section frame (an `<h2>`
 * that takes focus when the section is chosen), titled blocks inside it, the
 * announced outcome of an action, and `useAction` which runs one SDK call at
 * a time and words its result.
 */
import { forwardRef, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { cx } from '../internal/root-props.js';
import { useMessages } from '../internal/text.js';

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

/** What an action ended with: words to announce, as success or as error. */
export type Outcome = { kind: 'success' | 'error'; text: string } | null;

/**
 * The outcome of an action: a success in a `role="status"` region, an error
 * in a `role="alert"` region. Both regions are always present (empty when
 * there is nothing to say), so screen readers announce what appears in them.
 */
export function OutcomeNotice({ outcome, id }: { outcome: Outcome; id?: string }) {
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
      <div className="lk-notice-region" role="alert" id={id}>
        {outcome?.kind === 'error' ? (
          <p className="lk-alert">
            <Icon name="alert" size={18} className="lk-alert-icon" />
            <span>{outcome.text}</span>
          </p>
        ) : null}
      </div>
    </>
  );
}

/**
 * Runs one SDK call at a time. `run(work)` resolves `true` when `work`
 * succeeded: its returned text becomes a success outcome; a thrown error
 * becomes an error outcome worded by `describe` (default: the known-error
 * wording in force). Nothing is set after unmount.
 */
export function useAction() {
  const messages = useMessages();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const inFlight = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (work: () => Promise<string | null>, describe?: (error: unknown) => string | null): Promise<boolean> => {
      if (inFlight.current) return false;
      inFlight.current = true;
      setBusy(true);
      setOutcome(null);
      try {
        const text = await work();
        if (mounted.current) setOutcome(text ? { kind: 'success', text } : null);
        return true;
      } catch (error) {
        if (mounted.current) setOutcome({ kind: 'error', text: describe?.(error) ?? errorText(error, messages) });
        return false;
      } finally {
        inFlight.current = false;
        if (mounted.current) setBusy(false);
      }
    },
    [messages],
  );

  return { busy, outcome, setOutcome, run };
}
