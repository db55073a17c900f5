/**
 * `SettingSwitch`: a switch that saves its setting as soon as it changes
 * (the project settings, domains and sign-in methods pages). While saving it
 * is disabled; a refusal is shown under it, in the service's words, and the
 * switch stays as the project is.
 */
import { errorText } from '@latchkey/react';
import { type ReactNode, useState } from 'react';
import { SwitchField } from '../../ui/switch.js';

export interface SettingSwitchProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The setting as saved. */
  checked: boolean;
  /** Saves the new value. */
  save: (checked: boolean) => Promise<unknown>;
}

export function SettingSwitch({ label, hint, checked, save }: SettingSwitchProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="ld-setting-switch">
      <SwitchField
        label={label}
        hint={hint}
        checked={checked}
        disabled={busy}
        onCheckedChange={async (next) => {
          setBusy(true);
          setError(null);
          try {
            await save(next);
          } catch (failure) {
            setError(errorText(failure, undefined));
          } finally {
            setBusy(false);
          }
        }}
      />
      <div className="lk-alert-region" role="alert">
        {error ? <p className="lk-alert">{error}</p> : null}
      </div>
    </div>
  );
}
