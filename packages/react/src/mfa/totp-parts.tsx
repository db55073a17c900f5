/**
 * The parts of two-step sign-in shared by the sign-in pages and the Two-step
 * section: the authenticator-code field, the QR code (drawn in the page), the
 * key for manual entry, the form that confirms a new key with a code, and the
 * recovery codes shown once (copy, download).
 */
import type { TotpEnrolment } from '@latchkey/js';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormField, useFormContext } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { knownErrorCodeOf } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { CodeInput } from '../magic-link/code-input.js';
import { digitsOnly } from '../magic-link/normalize-code.js';
import { Spinner } from '../spinner.js';
import { mfaLabels } from './mfa-labels.js';

export interface OneTimeCodeFieldProps {
  /** The field's name in the form's errors. */
  name: string;
  label: string;
  value: string;
  /** The new value, digits only; the field's error goes as well. */
  onValueChange: (value: string) => void;
  /** Hears the sixth digit, typed or pasted. */
  onComplete: (value: string) => void;
}

/**
 * The authenticator-code field of the nearest `Form`: six digits, the numeric
 * keyboard, the browser's one-time-code autofill, a pasted `123 456` read as
 * `123456`; `onComplete` hears the sixth digit.
 */
export function OneTimeCodeField({ name, label, onValueChange, ...rest }: OneTimeCodeFieldProps) {
  const action = useFormContext()?.action;
  return (
    <FormField name={name} label={label}>
      {(control) => (
        <CodeInput
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          {...control}
          {...rest}
          required
          normalize={digitsOnly}
          onValueChange={(next) => {
            onValueChange(next);
            action?.edited(name);
          }}
        />
      )}
    </FormField>
  );
}

/** The wording of a refused code: the code step's "Invalid code…" unless the page's `messages` reword the error. */
export function useInvalidCodeText(): (error: unknown) => string | null {
  const labels = useLabels(mfaLabels);
  const messages = useMessages();
  return (error) =>
    knownErrorCodeOf(error) === 'INVALID_TOTP_CODE' && !messages?.INVALID_TOTP_CODE ? labels.mfaCodeInvalid : null;
}

/**
 * A QR code of `value`, drawn as SVG in the page. The encoder, uqr (small,
 * maintained, no dependencies), runs here rather than on an image service:
 * the `otpauth://` address holds the secret, which must not leave the page,
 * and the pages fetch nothing from the network. It is loaded with `import()`
 * when a QR code is first shown, so the sign-in page's bundle does not carry it.
 */
function QrCode({ value, label }: { value: string; label: string }) {
  const [modules, setModules] = useState<{ value: string; data: boolean[][] } | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ encode }) => {
      if (live) setModules({ value, data: encode(value, { ecc: 'M', border: 2 }).data });
    });
    return () => {
      live = false;
    };
  }, [value]);
  if (modules?.value !== value) {
    return (
      <div className="lk-qr" role="img" aria-label={label} aria-busy="true">
        <Spinner />
      </div>
    );
  }
  const size = modules.data.length;
  let path = '';
  modules.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  // Black on white in both themes: scanners need the contrast.
  return (
    <svg className="lk-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

interface TotpCodeFormProps {
  className: string;
  label: string;
  /** What comes before the field. */
  intro?: ReactNode;
  /** Sends a code; a refusal (`INVALID_TOTP_CODE`) shows under the field, which empties. */
  onCode: (totp: string) => Promise<unknown>;
  /** The buttons and the outcome, after the field. */
  children: ReactNode;
}

/** A form of one authenticator code: the field takes the focus, and the code goes at its sixth digit or on submit. */
export function TotpCodeForm({ className, label, intro, onCode, children }: TotpCodeFormProps) {
  const labels = useLabels(mfaLabels);
  const invalidCode = useInvalidCodeText();
  const action = useFormAction(['totp'] as const);
  const [code, setCode] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    action.focus('totp');
  }, []);

  const submit = async (typed: string) => {
    const done = await action.submit({
      check: () => ({ totp: typed.length < 6 ? labels.mfaCodeRequired : undefined }),
      work: () => onCode(typed),
      refusal: (error) => {
        const text = invalidCode(error);
        return text ? { totp: text } : null;
      },
      focusOnError: 'totp',
    });
    if (!done) setCode('');
  };
  return (
    <Form state={action} onSubmit={() => submit(code)} className={className}>
      {intro}
      <OneTimeCodeField name="totp" label={label} value={code} onValueChange={setCode} onComplete={submit} />
      {children}
    </Form>
  );
}

export interface TotpSetupFormProps {
  /** The new key (`null` while it is asked for). */
  enrolment: TotpEnrolment | null;
  /** Proves the key with a code of it; a refusal (`INVALID_TOTP_CODE`) shows under the field. */
  onConfirm: (totp: string) => Promise<unknown>;
}

/**
 * The QR code and the key of a new secret, and the form that confirms it with
 * a code of the app; the person chose to set it up, so the code field takes
 * the focus once the key is there.
 */
export function TotpSetupForm({ enrolment, onConfirm }: TotpSetupFormProps) {
  const labels = useLabels(mfaLabels);
  if (!enrolment) {
    return (
      <p className="lk-status" role="status">
        <Spinner />
        <span>{labels.mfaSetupLoading}</span>
      </p>
    );
  }
  return (
    <TotpCodeForm
      key={enrolment.secret}
      className="lk-form"
      label={labels.mfaConfirmLabel}
      intro={
        <>
          <p className="lk-form-text">{labels.mfaSetupScan}</p>
          <QrCode value={enrolment.otpauthUri} label={labels.mfaQrCodeLabel} />
          <p className="lk-field">
            <span className="lk-label">{labels.mfaSecretLabel}</span>
            <code className="lk-totp-secret" data-secret={enrolment.secret}>
              {grouped(enrolment.secret)}
            </code>
          </p>
        </>
      }
      onCode={onConfirm}
    >
      <BusyButton busyChildren={labels.mfaConfirmBusy}>{labels.mfaConfirmSubmit}</BusyButton>
      <OutcomeNotice />
    </TotpCodeForm>
  );
}

/**
 * The recovery codes, shown once: a list, "Copy codes" (the clipboard) and
 * "Download as .txt" (a file made in the page), and what comes next (`children`).
 */
export function RecoveryCodes({
  codes,
  level = 2,
  children,
}: {
  codes: readonly string[];
  /** The level of its heading, under the page's (default 2). */
  level?: 2 | 3 | 4;
  children?: ReactNode;
}) {
  const labels = useLabels(mfaLabels);
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const Heading = `h${level}` as const;
  // They appear after the code was confirmed: the focus goes to them, so screen readers read them next.
  useEffect(() => headingRef.current?.focus(), []);
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="lk-recovery-codes" aria-labelledby={titleId}>
      <Heading className="lk-recovery-codes-title" id={titleId} tabIndex={-1} ref={headingRef}>
        {labels.mfaRecoveryCodesTitle}
      </Heading>
      <p className="lk-form-text">{labels.mfaRecoveryCodesText}</p>
      <ol className="lk-recovery-code-list" aria-label={labels.mfaRecoveryCodesListLabel}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="lk-settings-actions">
        <button type="button" className="lk-button lk-button-secondary" onClick={copy}>
          {labels.mfaCopyCodes}
        </button>
        <a
          className="lk-button lk-button-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={labels.mfaCodesFileName}
        >
          {labels.mfaDownloadCodes}
        </a>
      </div>
      <p className="lk-status-text" role="status">
        {copied ? labels.mfaCodesCopied : ''}
      </p>
      {children}
    </section>
  );
}
