/**
 * Words of the passkey sign-up's steps (they load with them; the sign-up
 * page's own two are in `sign-in-step-labels.ts`): the e-mailed code that
 * proves the address, then the passkey. The English table is the one
 * declaration: the label type derives from it, and `labels` overrides
 * (provider, page) reword any entry.
 */

/** English passkey sign-up words; entries that embed a value are functions of a named object. */
export const passkeySignUpLabels = {
  /** Above the e-mail and code steps (in place of the page's subtitle). */
  passkeySignUpIntro: 'Confirm your e-mail with a code, then create a passkey. No password needed.',
  passkeySignUpCodeSentTo: ({ email }: { email: string }) =>
    `We sent a six-character code to ${email}. Type it below to confirm it.`,
  passkeySignUpConfirm: 'Confirm',
  passkeySignUpConfirmBusy: 'Checking…',
  /** Back from the passkey sign-up to the password form. */
  passkeySignUpPasswordOption: 'Use a password instead',
  /** The passkey step, once the code signed the new account in. */
  passkeySignUpCreateText: 'Your account is ready. Now create the passkey you will sign in with.',
  passkeySignUpCreate: 'Create a passkey',
  /** Past a refused or cancelled passkey: on to the app, signed in, without one. */
  passkeySignUpSkip: 'Continue without a passkey',
};
