/**
 * `ConfirmButton`: every destructive action asks first (Radix AlertDialog:
 * focus held in the dialog, Escape cancels, the cancel button has the focus).
 * The action runs from the dialog; while it runs the confirm button is busy,
 * and a refusal is shown in the dialog, which stays open.
 */
import { BusyButton, errorText } from '@latchkey/react';
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';

export interface ConfirmButtonProps {
  /** The button that opens the question. */
  children: ReactNode;
  /** The question, e.g. "Delete this user?" */
  title: string;
  /** What happens, e.g. "Their sessions end and they cannot sign in again." */
  description: ReactNode;
  /** The confirming button's label, e.g. "Delete user". */
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  /** The opening button's look (default `danger`). */
  variant?: 'danger' | 'secondary';
  /** Accessible name of the opening button when its content is not enough. */
  'aria-label'?: string;
  disabled?: boolean;
}

export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel,
  onConfirm,
  variant = 'danger',
  disabled,
  'aria-label': ariaLabel,
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(errorText(failure, undefined));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        setError(null);
      }}
    >
      <AlertDialog.Trigger asChild>
        <button
          type="button"
          className={`lk-button lk-button-${variant} ld-button-small`}
          aria-label={ariaLabel}
          disabled={disabled}
        >
          {children}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="ld-overlay" />
        <AlertDialog.Content className="ld-dialog lk-root">
          <AlertDialog.Title className="ld-dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="ld-muted">{description}</AlertDialog.Description>
          <div className="lk-alert-region" role="alert">
            {error ? <p className="lk-alert">{error}</p> : null}
          </div>
          <div className="ld-dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button" className="lk-button lk-button-secondary" disabled={busy}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            <BusyButton type="button" variant="danger" block={false} busy={busy} onClick={confirm}>
              {confirmLabel}
            </BusyButton>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
