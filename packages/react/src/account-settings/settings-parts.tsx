/**
 * What the account-settings sections share: the section frame (an `<h2>`
 * that takes focus when the section is chosen), titled blocks inside it, the
 * list of a section's items (e-mail addresses, passkeys) with its loading and
 * failed states, an item's row, the buttons beside "Cancel", and the question
 * asked once more before an item is removed. Their forms and buttons are the
 * form kit's (`../form/`).
 */
import { forwardRef, type ReactNode, type Ref, useEffect, useId, useRef, useState } from 'react';
import { useFormContext } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { cx } from '../internal/root-props.js';
import { useLabels } from '../internal/text.js';
import type { AppDataState } from '../internal/use-app-data.js';
import { Spinner } from '../spinner.js';
import { accountSettingsLabels } from './account-settings-labels.js';

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

/** What a section, or a part of one, says while it loads: a spinner and `children`. */
export function SettingsStatus({
  className = 'lk-settings-status',
  children,
}: {
  className?: string;
  children: string;
}) {
  return (
    <p className={cx('lk-status', className)} role="status">
      <Spinner />
      <span>{children}</span>
    </p>
  );
}

interface SettingsListProps<T> {
  state: AppDataState<T[]>;
  /** Loads the items again ("Try again" after a failure). */
  reload: () => Promise<unknown>;
  /** The list's accessible name. */
  label: string;
  loading: string;
  failed: string;
  empty: string;
  /** The rows; `onRemoved` moves the focus to the section's heading once a row is about to go. */
  children: (items: T[], onRemoved: () => void) => ReactNode;
}

/** A section's list of items: a spinner while they load, "Try again" after a failure, a line when there are none. */
export function SettingsList<T>({ state, reload, label, loading, failed, empty, children }: SettingsListProps<T>) {
  const labels = useLabels(accountSettingsLabels);
  const [retrying, setRetrying] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  if (state.status === 'loading' || retrying) return <SettingsStatus>{loading}</SettingsStatus>;
  if (state.status === 'failed') {
    return (
      <div className="lk-settings-failed">
        <p className="lk-error-text" role="alert">
          {failed}
        </p>
        <button
          type="button"
          className="lk-button lk-button-secondary"
          onClick={() => {
            setRetrying(true);
            reload()
              .catch(() => {})
              .finally(() => setRetrying(false));
          }}
        >
          {labels.tryAgain}
        </button>
      </div>
    );
  }
  if (state.data.length === 0) return <p className="lk-settings-empty">{empty}</p>;
  return (
    <ul className="lk-email-list" ref={listRef} aria-label={label}>
      {children(state.data, () => listRef.current?.closest('section')?.querySelector<HTMLElement>('h2')?.focus())}
    </ul>
  );
}

interface SettingsRowProps {
  /** The item's name (an address, a passkey's name), with `nameId` for the controls it describes. */
  name: string;
  nameId?: string;
  /** What is shown under the name (badges, dates). */
  details: ReactNode;
  /** The buttons beside it (none: no controls), after a spinner while `busy`. */
  controls: ReactNode;
  busy?: boolean;
  className?: string | false;
  /** What opens under it (a form, a question) and the outcome of its last action. */
  children?: ReactNode;
}

/** An item of a `SettingsList`: its name and details, its controls, and what opens under it. */
export function SettingsRow({ name, nameId, details, controls, busy, className, children }: SettingsRowProps) {
  return (
    <li className={cx('lk-email-row', className)} aria-busy={busy || undefined}>
      <div className="lk-email-summary">
        <div className="lk-email-identity">
          <span className="lk-email-address" id={nameId}>
            {name}
          </span>
          {details}
        </div>
        {controls ? (
          <div className="lk-email-controls">
            {busy ? <Spinner className="lk-email-busy" /> : null}
            {controls}
          </div>
        ) : null}
      </div>
      {children}
    </li>
  );
}

interface SettingsActionsProps {
  /** While true, "Cancel" is off (default: while the nearest form's action runs). */
  busy?: boolean;
  onCancel: () => void;
  cancelRef?: Ref<HTMLButtonElement>;
  /** The action (default: the form's "Save", "Saving…" while it runs). */
  children?: ReactNode;
}

/** The buttons of a settings form or question: its action, and "Cancel". */
export function SettingsActions({ busy, onCancel, cancelRef, children }: SettingsActionsProps) {
  const labels = useLabels(accountSettingsLabels);
  const form = useFormContext();
  return (
    <div className="lk-settings-actions">
      {children ?? (
        <BusyButton block={false} busyChildren={labels.accountSaving}>
          {labels.accountSave}
        </BusyButton>
      )}
      <button
        type="button"
        ref={cancelRef}
        className="lk-button lk-button-secondary"
        disabled={busy ?? form?.action.busy}
        onClick={onCancel}
      >
        {labels.accountCancel}
      </button>
    </div>
  );
}

interface ConfirmRemoveProps {
  question: string;
  /** What else to know, after the question. */
  note?: ReactNode;
  /** The danger button's label. */
  submit: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The question asked once more before an item is removed; its "Cancel" takes the focus when it opens. */
export function ConfirmRemove({ question, note, submit, busy, onConfirm, onCancel }: ConfirmRemoveProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="lk-confirm">
      <p className="lk-confirm-text">
        <strong>{question}</strong> {note}
      </p>
      <SettingsActions busy={busy} onCancel={onCancel} cancelRef={cancelRef}>
        <BusyButton type="button" variant="danger" block={false} busy={busy} onClick={onConfirm}>
          {submit}
        </BusyButton>
      </SettingsActions>
    </div>
  );
}
