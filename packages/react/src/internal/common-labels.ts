/**
 * Words several features show: the e-mail and password fields, and the ways
 * on from a page (try again, home, back to sign-in, continue). The English
 * table is the one declaration: the label type derives from it, and `labels`
 * overrides (provider, page) reword any entry.
 */

/** English common words; entries that embed a value are functions of a named object. */
export const commonLabels = {
  emailLabel: 'E-mail',
  emailPlaceholder: 'you@example.com',
  passwordLabel: 'Password',
  /** Hint under a new password (sign-up). */
  newPasswordHint: ({ minLength }: { minLength: number }) => `At least ${minLength} characters.`,
  /** Accessible name of the password toggle while hidden; should contain `showPasswordShort`. */
  showPassword: 'Show password',
  /** Accessible name of the password toggle while shown; should contain `hidePasswordShort`. */
  hidePassword: 'Hide password',
  /** Visible text of the password toggle while hidden. */
  showPasswordShort: 'Show',
  /** Visible text of the password toggle while shown. */
  hidePasswordShort: 'Hide',
  tryAgain: 'Try again',
  goHome: 'Go home',
  backToSignIn: 'Back to sign in',
  continueLabel: 'Continue',
  /** Busy text of the send buttons (reset link, sign-in code). */
  sendingBusy: 'Sending…',
};
