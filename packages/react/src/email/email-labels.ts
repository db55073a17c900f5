/**
 * Words of the e-mail pages: forgot password, password reset and e-mail
 * verification. The English table is the one declaration: the label type
 * derives from it, and `labels` overrides (provider, page) reword any entry.
 */

/** English email words; entries that embed a value are functions of a named object. */
export const emailLabels = {
  forgotPasswordTitle: 'Reset your password',
  forgotPasswordSubtitle: 'Enter the e-mail of your account and we will send you a link to choose a new password.',
  forgotPasswordSubmit: 'Send reset link',
  checkInboxTitle: 'Check your inbox',
  /** After a reset link was asked for; the same whether or not the account exists. */
  forgotPasswordSent: ({ email }: { email: string }) =>
    `If an account uses ${email}, a link to choose a new password is on its way. It works for one hour.`,
  passwordResetTitle: 'Choose a new password',
  passwordResetSubtitle: 'Type it twice to be sure it is right.',
  /** Status text while the reset link is checked. */
  passwordResetChecking: 'Checking your link…',
  newPasswordLabel: 'New password',
  confirmPasswordLabel: 'Confirm new password',
  passwordResetSubmit: 'Save new password',
  passwordResetBusy: 'Saving…',
  passwordResetDoneTitle: 'Password changed',
  passwordResetDoneText: 'You can now sign in with your new password.',
  /** Action of an unusable reset or sign-in link. */
  requestNewLink: 'Ask for a new link',
  emailVerificationTitle: 'Verifying your e-mail',
  /** Status text while the verification link is checked. */
  emailVerificationChecking: 'Checking your link…',
  emailVerifiedTitle: 'E-mail verified',
  emailVerifiedText: 'Thank you: your e-mail address is confirmed.',
  /** A used verification link: the address is most likely verified already. */
  emailVerificationUsedText: 'It was opened before, so your address is most likely verified already.',
};
