/**
 * `FormDialog`: a modal (Radix Dialog) holding a form of the kit, opened by
 * a button. The form closes it by calling `close` once its action succeeded.
 */
import { Dialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';

export interface FormDialogProps {
  /** The opening button's label. */
  trigger: ReactNode;
  title: string;
  description?: ReactNode;
  /** The dialog's body; `close` closes it. */
  children: (close: () => void) => ReactNode;
  /** The opening button's look (default `primary`). */
  variant?: 'primary' | 'secondary';
  /** Wider, for editors. */
  wide?: boolean;
}

export function FormDialog({ trigger, title, description, children, variant = 'primary', wide }: FormDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className={`lk-button lk-button-${variant} ld-button-small`}>
          {trigger}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="ld-overlay" />
        <Dialog.Content className={`ld-dialog lk-root${wide ? ' ld-dialog-wide' : ''}`} aria-describedby={undefined}>
          <Dialog.Title className="ld-dialog-title">{title}</Dialog.Title>
          {description ? <Dialog.Description className="ld-muted">{description}</Dialog.Description> : null}
          {children(() => setOpen(false))}
          <Dialog.Close asChild>
            <button type="button" className="ld-dialog-close" aria-label="Close">
              ×
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
