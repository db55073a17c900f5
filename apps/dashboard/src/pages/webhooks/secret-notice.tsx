/** An endpoint's signing secret, shown this once, with its copy button and the warning. */
import { CopyField } from '../../ui/copy-button.js';

export function SecretNotice({ secret }: { secret: string }) {
  return (
    <>
      <p className="lk-alert ld-warning" role="alert">
        Copy the signing secret now: it will not be shown again. Your receiver verifies each message with it.
      </p>
      <CopyField label="Signing secret" value={secret} />
    </>
  );
}
