/** A labelled on/off setting (Radix Switch), saved by its owner on change. */
import { Switch } from 'radix-ui';
import { type ReactNode, useId } from 'react';

export interface SwitchFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function SwitchField({ label, hint, checked, onCheckedChange, disabled }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className="ld-switch-field">
      <div>
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p className="ld-muted" id={`${id}hint`}>
            {hint}
          </p>
        ) : null}
      </div>
      <Switch.Root
        id={id}
        className="ld-switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={hint ? `${id}hint` : undefined}
      >
        <Switch.Thumb className="ld-switch-thumb" />
      </Switch.Root>
    </div>
  );
}
