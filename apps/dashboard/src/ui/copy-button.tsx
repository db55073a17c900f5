/** A button that copies a value (a key, a URL) and says so. */
import { useState } from 'react';

function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="lk-button lk-button-secondary ld-button-small"
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </button>
  );
}

/** A value shown in full in monospace, with its copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="ld-copy-field">
      <span className="ld-copy-label">{label}</span>
      <code>{value}</code>
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
