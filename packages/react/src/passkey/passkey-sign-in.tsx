/**
 * The sign-in page's passkey parts: the "Sign in with a passkey" button, and
 * the passkey autofill (conditional mediation): while the page shows, the
 * browser offers the site's passkeys in the autofill of the e-mail field
 * (`autocomplete="username webauthn"`), and picking one signs in.
 */
import { type MultiFactorAttempt, multiFactorAttempt } from '@latchkey/js';
import { useEffect, useRef, useState } from 'react';
import { FormAlert } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { signInStepLabels } from '../mfa/sign-in-step-labels.js';
import { useApp } from '../provider.js';

export interface PasskeySignInProps {
  /** Run the autofill ceremony while shown (stops when it turns false, e.g. when another method starts). */
  autofill: boolean;
  noRedirect?: boolean | undefined;
  onSuccess?: (() => void) | undefined;
  /** The passkey was accepted and the service asks for the second factor. */
  onMultiFactor: (attempt: MultiFactorAttempt) => void;
}

/** Whether the browser offers passkeys in the autofill of a field (`PublicKeyCredential.isConditionalMediationAvailable`). */
async function autofillAvailable(): Promise<boolean> {
  const credential = (
    globalThis as { PublicKeyCredential?: { isConditionalMediationAvailable?: () => Promise<boolean> } }
  ).PublicKeyCredential;
  try {
    return (await credential?.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** The passkey button, its alert, and the autofill ceremony while `autofill`. */
export function PasskeySignIn({ autofill, noRedirect, onSuccess, onMultiFactor }: PasskeySignInProps) {
  const app = useApp();
  const labels = useLabels(signInStepLabels);
  const action = useFormAction();
  const autofillRun = useRef<AbortController | null>(null);
  /** Counts the button's failed ceremonies: the autofill starts anew after one. */
  const [round, setRound] = useState(0);
  // The latest handlers, for a ceremony started before a render.
  const latest = { onSuccess, onMultiFactor, fail: action.setOutcome, messages: useMessages() };
  const handlers = useRef(latest);
  handlers.current = latest;

  /** One ceremony: signed in, or on to the second step; any other error (or any after an abort) is thrown. */
  const ceremony = async (options: { autofill?: true; signal?: AbortSignal }) => {
    try {
      if (await app.signInWithPasskey({ ...options, noRedirect: noRedirect === true })) handlers.current.onSuccess?.();
    } catch (error) {
      const attempt = options.signal?.aborted ? null : multiFactorAttempt(error);
      if (!attempt) throw error;
      handlers.current.onMultiFactor(attempt);
    }
  };

  // One ceremony per showing (and after a failed button ceremony: `round`); handlers are read when it ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!autofill) return;
    const run = new AbortController();
    autofillRun.current = run;
    void (async () => {
      // The browser offers passkeys in a field marked for it; with none shown (an e-mailed code's step), nothing runs.
      const field = document.querySelector("input[autocomplete$='webauthn']");
      if (!field || !(await autofillAvailable()) || run.signal.aborted) return;
      try {
        await ceremony({ autofill: true, signal: run.signal });
      } catch (error) {
        if (!run.signal.aborted)
          handlers.current.fail({ kind: 'error', text: errorText(error, handlers.current.messages) });
      }
    })();
    return () => run.abort();
  }, [app, autofill, round]);

  const signIn = async () => {
    // The button's ceremony replaces the autofill's.
    autofillRun.current?.abort();
    const done = await action.submit({
      work: async () => {
        await ceremony({});
        return null;
      },
    });
    if (!done) setRound((n) => n + 1);
  };

  return (
    <div className="lk-passkey-sign-in">
      <FormAlert message={action.outcome?.kind === 'error' ? action.outcome.text : null} />
      <BusyButton
        type="button"
        variant="secondary"
        busy={action.busy}
        busyChildren={labels.passkeySignInBusy}
        onClick={signIn}
      >
        {labels.passkeySignIn}
      </BusyButton>
    </div>
  );
}
