/**
 * The few words of passkeys and two-step sign-in that the sign-in and sign-up
 * pages show before any second step: the passkey buttons, and the title of the second
 * step while its code loads (the rest, `mfa-labels.ts` and
 * `passkey-sign-up-labels.ts`, comes with it). The
 * English table is the one declaration: the label type derives from it, and
 * `labels` overrides (provider, page) reword any entry.
 */

/** English sign-in step words. */
export const signInStepLabels = {
  /** The passkey button of the sign-in page. */
  passkeySignIn: 'Sign in with a passkey',
  passkeySignInBusy: 'Waiting for your passkey…',
  /** The sign-up page's switch to the passkey sign-up. */
  passkeySignUp: 'Sign up with a passkey',
  /** The title of the second step of a sign-in (the code step). */
  mfaTitle: 'Two-step sign-in',
  mfaLoading: 'One moment…',
};
