/**
 * Words of two-step sign-in (those the sign-in page itself shows are in
 * `sign-in-step-labels.ts`): the code step after a first factor, the set-up
 * a project's requirement forces (and the Two-step section reuses: the QR
 * code, the secret, the recovery codes). The English table is the one
 * declaration: the label type derives from it, and `labels` overrides
 * (provider, page) reword any entry.
 */

/** English mfa words; entries that embed a value are functions of a named object. */
export const mfaLabels = {
  /** The code step, after the password, the e-mailed code, OAuth or a passkey (its title: `mfaTitle`). */
  mfaSubtitle: 'Enter the six-digit code from your authenticator app.',
  mfaRecoverySubtitle: 'Enter one of the recovery codes you saved when you turned on two-step sign-in.',
  mfaCodeLabel: 'Code from your authenticator app',
  mfaRecoveryCodeLabel: 'Recovery code',
  mfaSubmit: 'Verify',
  mfaBusy: 'Verifying…',
  mfaUseRecoveryCode: 'Use a recovery code',
  mfaUseAuthenticator: 'Use a code from your authenticator app',
  /** A refused code (`INVALID_TOTP_CODE`) on the code step. */
  mfaCodeInvalid: 'Invalid code. Check your authenticator app and try again.',
  mfaCodeRequired: 'Enter the six digits from your authenticator app.',
  mfaRecoveryCodeRequired: 'Enter one of your recovery codes.',
  /** The set-up a project's requirement forces (and the Two-step section's "Turn on"). */
  mfaSetupTitle: 'Set up two-step sign-in',
  mfaSetupSubtitle: 'This app asks for a code from an authenticator app each time you sign in.',
  mfaSetupScan: 'Scan this QR code with your authenticator app, or type the key below into it.',
  mfaSetupLoading: 'Preparing your key…',
  /** Accessible name of the QR code. */
  mfaQrCodeLabel: 'QR code for your authenticator app',
  mfaSecretLabel: 'Key for manual entry',
  mfaConfirmLabel: 'Code from the app, to confirm',
  mfaConfirmSubmit: 'Turn on',
  mfaConfirmBusy: 'Turning on…',
  /** The recovery codes, shown once. */
  mfaRecoveryCodesTitle: 'Save your recovery codes',
  mfaRecoveryCodesText:
    'Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: they are not shown again.',
  mfaRecoveryCodesListLabel: 'Recovery codes',
  mfaCopyCodes: 'Copy codes',
  mfaCodesCopied: 'The codes are copied.',
  mfaDownloadCodes: 'Download as .txt',
  /** The name of the downloaded file. */
  mfaCodesFileName: 'recovery-codes.txt',
  mfaContinue: 'I saved them, continue',
};
