/**
 * The Two-step sign-in section. Off: "Turn on" asks for a new key, shown as
 * a QR code (drawn in the page) and as text, confirmed with a code of the
 * app; then the ten recovery codes, shown once. On: "Regenerate recovery
 * codes" and "Turn off", each after a current code of the app.
 */
import type { CurrentUser, TotpEnrolment } from '@latchkey/js';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { FormAlert, OutcomeNotice } from '../form/alert.js';
import { BusyButton } from '../form/submit-button.js';
import { type Outcome, useFormAction } from '../form/use-form-action.js';
import { useLabels } from '../internal/text.js';
import { mfaLabels } from '../mfa/mfa-labels.js';
import { RecoveryCodes, TotpCodeForm, TotpSetupForm } from '../mfa/totp-parts.js';
import { useUser } from '../use-user.js';
import { accountSettingsLabels } from './account-settings-labels.js';
import { SettingsActions, SettingsBlock } from './settings-parts.js';

/** Where the section is: at rest, setting up a key, asking a code for an action, or showing new codes. */
type Step =
  | { kind: 'rest' }
  | { kind: 'setup'; enrolment: TotpEnrolment }
  | { kind: 'code'; purpose: 'regenerate' | 'turn-off' }
  | { kind: 'codes'; codes: string[]; done: 'turned-on' | 'regenerated' };

/** The Two-step sign-in section's content. */
export function MfaSection() {
  const user = useUser({ or: 'redirect' });
  const labels = useLabels(accountSettingsLabels, mfaLabels);
  const [step, setStep] = useState<Step>({ kind: 'rest' });
  const [notice, setNotice] = useState<Outcome>(null);
  const action = useFormAction();
  const turnOnRef = useRef<HTMLButtonElement>(null);
  const regenerateRef = useRef<HTMLButtonElement>(null);
  const turnOffRef = useRef<HTMLButtonElement>(null);
  const restFocus = useRef(false);
  const on = user.isMultiFactorRequired;

  // Back at rest after an action, the focus goes to the button that fits the new state.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new step only
  useEffect(() => {
    if (step.kind !== 'rest' || !restFocus.current) return;
    (on ? regenerateRef : turnOnRef).current?.focus();
    restFocus.current = false;
  }, [step]);

  const rest = (outcome: Outcome) => {
    setNotice(outcome);
    restFocus.current = true;
    setStep({ kind: 'rest' });
  };

  const turnOn = () =>
    action.run(async () => {
      setNotice(null);
      setStep({ kind: 'setup', enrolment: await user.enableTotp() });
      return null;
    });

  let body: ReactNode;
  if (step.kind === 'setup') {
    body = (
      <>
        <TotpSetupForm
          enrolment={step.enrolment}
          onConfirm={async (totp) => {
            const { recoveryCodes } = await user.confirmTotp(totp);
            setStep({ kind: 'codes', codes: recoveryCodes, done: 'turned-on' });
          }}
        />
        <button type="button" className="lk-button lk-button-secondary" onClick={() => rest(null)}>
          {labels.accountCancel}
        </button>
      </>
    );
  } else if (step.kind === 'codes') {
    body = (
      <RecoveryCodes codes={step.codes} level={3}>
        <button
          type="button"
          className="lk-button lk-button-primary"
          onClick={() =>
            rest({
              kind: 'success',
              text: step.done === 'turned-on' ? labels.accountMfaTurnedOn : labels.accountMfaRegenerated,
            })
          }
        >
          {labels.accountMfaDone}
        </button>
      </RecoveryCodes>
    );
  } else if (step.kind === 'code') {
    body = (
      <CurrentCodeForm
        user={user}
        purpose={step.purpose}
        onDone={(codes) =>
          codes
            ? setStep({ kind: 'codes', codes, done: 'regenerated' })
            : rest({ kind: 'success', text: labels.accountMfaTurnedOff })
        }
        onCancel={() => rest(null)}
      />
    );
  } else if (on) {
    body = (
      <div className="lk-settings-actions">
        <button
          type="button"
          ref={regenerateRef}
          className="lk-button lk-button-secondary"
          onClick={() => {
            setNotice(null);
            setStep({ kind: 'code', purpose: 'regenerate' });
          }}
        >
          {labels.accountMfaRegenerate}
        </button>
        <button
          type="button"
          ref={turnOffRef}
          className="lk-button lk-button-danger"
          onClick={() => {
            setNotice(null);
            setStep({ kind: 'code', purpose: 'turn-off' });
          }}
        >
          {labels.accountMfaTurnOff}
        </button>
      </div>
    );
  } else {
    body = (
      <div className="lk-settings-actions">
        <BusyButton
          type="button"
          ref={turnOnRef}
          block={false}
          busy={action.busy}
          busyChildren={labels.accountMfaTurnOnBusy}
          onClick={turnOn}
        >
          {labels.accountMfaTurnOn}
        </BusyButton>
      </div>
    );
  }
  return (
    <SettingsBlock
      title={on ? labels.accountMfaOnTitle : labels.accountMfaOffTitle}
      description={on ? labels.accountMfaOnDescription : labels.accountMfaOffDescription}
    >
      {body}
      <OutcomeNotice outcome={action.outcome?.kind === 'error' ? action.outcome : notice} />
    </SettingsBlock>
  );
}

interface CurrentCodeFormProps {
  user: CurrentUser;
  purpose: 'regenerate' | 'turn-off';
  /** The new recovery codes (regenerate), or `null` (turned off). */
  onDone: (codes: string[] | null) => void;
  onCancel: () => void;
}

/** A current code of the app, asked before regenerating the recovery codes or turning two-step sign-in off. */
function CurrentCodeForm({ user, purpose, onDone, onCancel }: CurrentCodeFormProps) {
  const labels = useLabels(accountSettingsLabels, mfaLabels);
  return (
    <TotpCodeForm
      className="lk-settings-form"
      label={labels.accountMfaCurrentCodeLabel}
      onCode={async (totp) => {
        if (purpose === 'regenerate') onDone(await user.regenerateRecoveryCodes(totp));
        else {
          await user.disableTotp({ totp });
          onDone(null);
        }
      }}
    >
      <SettingsActions onCancel={onCancel}>
        <BusyButton block={false} variant={purpose === 'turn-off' ? 'danger' : 'primary'}>
          {purpose === 'turn-off' ? labels.accountMfaTurnOffSubmit : labels.accountMfaRegenerateSubmit}
        </BusyButton>
      </SettingsActions>
      <FormAlert />
    </TotpCodeForm>
  );
}
