/**
 * The parts of two-step sign-in shared by the sign-in pages and the Two-step
 * section: the authenticator-code field, the QR code (drawn in the page), the
 * key for manual entry, the form that confirms a new key with a code, and the
 * recovery codes shown once (copy, download).
 */
import type { TotpEnrolment } from '@latchkey/js';
import { forwardRef, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { OutcomeNotice } from '../form/alert.js';
import { Form, FormField } from '../form/form.js';
import { BusyButton } from '../form/submit-button.js';
import { useFormAction } from '../form/use-form-action.js';
import { knownErrorCodeOf } from '../internal/error-text.js';
import { useLabels, useMessages } from '../internal/text.js';
import { CodeInput, type CodeInputProps, digitsOnly } from '../magic-link/code-input.js';
import { Spinner } from '../spinner.js';
import { mfaLabels } from './mfa-labels.js';

/**
 * The six digits of an authenticator app: the numeric keyboard, the browser's
 * one-time-code autofill, a pasted `123 456` read as `123456`; `onComplete`
 * hears the sixth digit.
 */
export const OneTimeCodeInput = forwardRef<HTMLInputElement, CodeInputProps>(function OneTimeCodeInput(props, ref) {
  return (
    <CodeInput
      name="totp"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      {...props}
      ref={ref}
      normalize={digitsOnly}
    />
  );
});

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

export interface TotpSetupFormProps {
  /** The new key (`null` while it is asked for). */
  enrolment: TotpEnrolment | null;
  /** Proves the key with a code of it; a refusal (`INVALID_TOTP_CODE`) shows under the field. */
  onConfirm: (totp: string) => Promise<unknown>;
  /** The submit button's label (default: "Turn on"). */
  submitLabel?: string;
}

/** The QR code and the key of a new secret, and the form that confirms it with a code of the app. */
export function TotpSetupForm({ enrolment, onConfirm, submitLabel }: TotpSetupFormProps) {
  const labels = useLabels(mfaLabels);
  const invalidCode = useInvalidCodeText();
  const action = useFormAction(['totp'] as const);
  const [code, setCode] = useState('');

  // The person chose to set it up: the code field takes the focus once the key is there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new key moves the focus
  useEffect(() => {
    if (enrolment) action.focus('totp');
  }, [enrolment]);

  if (!enrolment) {
    return (
      <p className="lk-status" role="status">
        <Spinner />
        <span>{labels.mfaSetupLoading}</span>
      </p>
    );
  }
  const confirm = async (typed: string) => {
    const done = await action.submit({
      check: () => ({ totp: typed.length < 6 ? labels.mfaCodeRequired : undefined }),
      work: () => onConfirm(typed),
      refusal: (error) => {
        const text = invalidCode(error);
        return text ? { totp: text } : null;
      },
      focusOnError: 'totp',
    });
    if (!done) setCode('');
  };
  return (
    <Form state={action} onSubmit={() => confirm(code)} className="lk-form">
      <p className="lk-form-text">{labels.mfaSetupScan}</p>
      <QrCode value={enrolment.otpauthUri} label={labels.mfaQrCodeLabel} />
      <p className="lk-field">
        <span className="lk-label">{labels.mfaSecretLabel}</span>
        <code className="lk-totp-secret" data-secret={enrolment.secret}>
          {grouped(enrolment.secret)}
        </code>
      </p>
      <FormField name="totp" label={labels.mfaConfirmLabel}>
        {(control) => (
          <OneTimeCodeInput
            {...control}
            required
            value={code}
            onValueChange={(next) => {
              setCode(next);
              action.edited('totp');
            }}
            onComplete={confirm}
          />
        )}
      </FormField>
      <BusyButton busyChildren={labels.mfaConfirmBusy}>{submitLabel ?? labels.mfaConfirmSubmit}</BusyButton>
      <OutcomeNotice outcome={action.outcome} />
    </Form>
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
