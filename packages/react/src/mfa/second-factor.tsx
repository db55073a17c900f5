/**
 * `SecondFactorCard`: what a sign-in page shows once the first factor
 * (password, e-mailed code or link, OAuth, passkey) was accepted but the
 * service asks for the second (`multiFactorAttempt` of `@latchkey/js`): the
 * code of the user's authenticator app or one of their recovery codes; or,
 * when the project requires two-step sign-in of a user without it, the set-up
 * (QR code and key, a code to confirm, the recovery codes), after which the
 * user is signed in.
 */
import type { MultiFactorAttempt } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { FormAlert } from '../form/alert.js';
import { Form, FormInputField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { errorText } from '../internal/error-text.js';
import { Icon } from '../internal/icon.js';
import { useLabels, useMessages } from '../internal/text.js';
import { useOnce } from '../internal/use-once.js';
import { useApp } from '../provider.js';
import { mfaLabels } from './mfa-labels.js';
import { signInStepLabels } from './sign-in-step-labels.js';
import { OneTimeCodeField, RecoveryCodes, TotpSetupForm, useInvalidCodeText } from './totp-parts.js';

export interface SecondFactorCardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  attempt: MultiFactorAttempt;
  /** Stay on the page after success instead of letting the SDK redirect. */
  noRedirect?: boolean | undefined;
  /** Called once the user is signed in. */
  onSuccess?: (() => void) | undefined;
  /** Back to the first factor (default: a link to the sign-in page). */
  onCancel?: (() => void) | undefined;
  /**
   * A refused code in the catalogue's words ("Invalid TOTP code. Please try
   * signing in again.", what the OAuth callback says) instead of the code step's.
   */
  catalogueWording?: boolean;
}

/** The card of the second step of a sign-in, or of the set-up a project's requirement forces. */
export const SecondFactorCard = forwardRef<HTMLDivElement, SecondFactorCardProps>(function SecondFactorCard(
  { attempt, noRedirect, onSuccess, onCancel, catalogueWording, ...rest },
  ref,
) {
  const app = useApp();
  const labels = useLabels(mfaLabels, signInStepLabels);
  const back = onCancel ? (
    <button type="button" className="lk-button-text" onClick={onCancel}>
      {labels.backToSignIn}
    </button>
  ) : (
    <a className="lk-link" href={app.urls.signIn}>
      {labels.backToSignIn}
    </a>
  );
  const [recovery, setRecovery] = useState(false);
  if (attempt.setupRequired) {
    return (
      <AuthCard
        {...rest}
        ref={ref}
        icon={<Icon name="key" size={22} />}
        title={labels.mfaSetupTitle}
        subtitle={labels.mfaSetupSubtitle}
        footer={back}
      >
        <ForcedSetup attempt={attempt} noRedirect={noRedirect} onSuccess={onSuccess} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      {...rest}
      ref={ref}
      icon={<Icon name="key" size={22} />}
      title={labels.mfaTitle}
      subtitle={recovery ? labels.mfaRecoverySubtitle : labels.mfaSubtitle}
      footer={back}
    >
      <CodeStep
        key={recovery ? 'recovery' : 'totp'}
        attempt={attempt}
        recovery={recovery}
        onSwitch={() => setRecovery(!recovery)}
        noRedirect={noRedirect}
        onSuccess={onSuccess}
        catalogueWording={catalogueWording}
      />
    </AuthCard>
  );
});

interface CodeStepProps {
  attempt: MultiFactorAttempt;
  recovery: boolean;
  onSwitch: () => void;
  noRedirect: boolean | undefined;
  onSuccess: (() => void) | undefined;
  catalogueWording: boolean | undefined;
}

/** The authenticator code (sent at the sixth digit), or a recovery code; the switch between them. */
function CodeStep({ attempt, recovery, onSwitch, noRedirect, onSuccess, catalogueWording }: CodeStepProps) {
  const app = useApp();
  const labels = useLabels(mfaLabels);
  const messages = useMessages();
  const invalidCode = useInvalidCodeText();
  const action = useFormAction(['code'] as const);
  const [code, setCode] = useState('');

  // The step appeared after the first factor, or the person switched: the field takes the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only (the step is keyed by its kind)
  useEffect(() => {
    action.focus('code');
  }, []);

  const submit = async (typed: string) => {
    const value = typed.trim();
    const done = await action.submit({
      check: () => ({
        code: recovery
          ? value
            ? undefined
            : labels.mfaRecoveryCodeRequired
          : value.length < 6
            ? labels.mfaCodeRequired
            : undefined,
      }),
      work: async () => {
        const proof = recovery ? { recoveryCode: value } : { totp: value };
        // Onward to where the first factor would have gone (an OAuth flow's page), else the page's return-to.
        await app.signInWithMfa(
          { attemptCode: attempt.attemptCode, ...proof },
          { noRedirect: noRedirect === true, returnTo: attempt.returnTo },
        );
        onSuccess?.();
      },
      describe: (error) => (catalogueWording ? errorText(error, messages) : invalidCode(error)),
      focusOnError: 'code',
      stayPending: !noRedirect,
    });
    // A refused authenticator code is typed anew (and sent again at its sixth digit).
    if (!done && !recovery) setCode('');
  };

  return (
    <Form state={action} onSubmit={() => submit(code)}>
      <FormAlert />
      {recovery ? (
        <FormInputField
          input="input"
          field="code"
          label={labels.mfaRecoveryCodeLabel}
          className="lk-input lk-recovery-code-input"
          name="recoveryCode"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={code}
          onValueChange={setCode}
        />
      ) : (
        <OneTimeCodeField
          name="code"
          label={labels.mfaCodeLabel}
          value={code}
          onValueChange={setCode}
          onComplete={submit}
        />
      )}
      <BusyButton busyChildren={labels.mfaBusy}>{labels.mfaSubmit}</BusyButton>
      <div className="lk-actions">
        <button type="button" className="lk-button-text" disabled={action.busy} onClick={onSwitch}>
          {recovery ? labels.mfaUseAuthenticator : labels.mfaUseRecoveryCode}
        </button>
      </div>
    </Form>
  );
}

/** The set-up a project's requirement forces: the key, a code to confirm it, the recovery codes, then on. */
function ForcedSetup({ attempt, noRedirect, onSuccess }: Pick<CodeStepProps, 'attempt' | 'noRedirect' | 'onSuccess'>) {
  const app = useApp();
  const labels = useLabels(mfaLabels);
  const messages = useMessages();
  // Once per attempt, also under StrictMode: a second call would replace the key shown.
  const [started, retry] = useOnce(`mfa-setup:${attempt.attemptCode}`, () => app.startMfaSetup(attempt.attemptCode));
  const [done, setDone] = useState<{ recoveryCodes: string[]; redirect: () => Promise<void> } | null>(null);
  const goOn = () => {
    if (noRedirect) onSuccess?.();
    else void done?.redirect();
  };
  let body: ReactNode;
  if (done) {
    body = (
      <RecoveryCodes codes={done.recoveryCodes}>
        <BusyButton type="button" busy={false} onClick={goOn}>
          {labels.mfaContinue}
        </BusyButton>
      </RecoveryCodes>
    );
  } else if (started.status === 'failed') {
    body = (
      <div className="lk-actions">
        <FormAlert message={errorText(started.error, messages)} />
        <button type="button" className="lk-button lk-button-primary lk-button-block" onClick={retry}>
          {labels.tryAgain}
        </button>
      </div>
    );
  } else {
    body = (
      <TotpSetupForm
        enrolment={started.value ?? null}
        onConfirm={async (totp) => {
          // Signed in now; the codes are shown before the page moves on.
          setDone(
            await app.confirmMfaSetup(attempt.attemptCode, totp, { noRedirect: true, returnTo: attempt.returnTo }),
          );
        }}
      />
    );
  }
  return body;
}
