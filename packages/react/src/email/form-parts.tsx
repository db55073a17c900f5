/** Small form pieces the e-mail pages share (the credential form has its own, bound to its context). */
import { Icon } from '../internal/icon.js';
import { Spinner } from '../spinner.js';

/** The form-level error region (always present, so its `role="alert"` announces what appears in it). */
export function FormAlert({ id, message }: { id: string; message: string | undefined }) {
  return (
    <div className="lk-alert-region" role="alert" id={id}>
      {message ? (
        <p className="lk-alert">
          <Icon name="alert" size={18} className="lk-alert-icon" />
          <span>{message}</span>
        </p>
      ) : null}
    </div>
  );
}

/** A block submit button, disabled and `aria-busy` with a spinner while `busy`. */
export function BusyButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: string }) {
  return (
    <button type="submit" className="lk-button lk-button-primary lk-button-block" disabled={busy} aria-busy={busy}>
      {busy ? <Spinner /> : null}
      <span>{busy ? busyLabel : children}</span>
    </button>
  );
}
