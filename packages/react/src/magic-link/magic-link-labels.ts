/**
 * Words of sign-in by e-mailed code or link. The English table is the one
 * declaration: the label type derives from it, and `labels` overrides
 * (provider, page) reword any entry.
 */

/** English magicLink words; entries that embed a value are functions of a named object. */
export const magicLinkLabels = {
  /** The sign-in page's switch to the e-mailed code, and its separator. */
  magicLinkOption: 'E-mail me a code',
  orSeparator: 'or',
  magicLinkSubtitle: 'We will e-mail you a code and a link to sign in with, no password needed.',
  magicLinkSubmit: 'Send me a code',
  /** Back from the e-mailed code to the password form. */
  passwordOption: 'Sign in with a password instead',
  codeSentTo: ({ email }: { email: string }) =>
    `We sent a six-character code to ${email}. Type it below, or open the link in the e-mail.`,
  codeLabel: 'Code from the e-mail',
  sendCodeAgain: 'Send a new code',
  /** Announced once a new code is sent. */
  codeSentAgain: 'A new code is on its way; the previous one no longer works.',
  useAnotherEmail: 'Use another e-mail',
  /** The magic-link callback page while it signs in. */
  magicLinkSigningIn: 'Signing you in…',
  magicLinkFailedTitle: 'Could not sign you in',
};
