/**
 * Words of the sign-in and sign-up pages and their credential form. The
 * English table is the one declaration: the label type derives from it, and
 * `labels` overrides (provider, page) reword any entry.
 */

/** English credential words; entries that embed a value are functions of a named object. */
export const credentialLabels = {
  /** Sign-in title while the project name loads. */
  signInTitle: 'Sign in',
  signInTitleWithProject: ({ projectName }: { projectName: string }) => `Sign in to ${projectName}`,
  /** Sign-in title when the project name cannot be known. */
  signInTitleUnnamed: 'Sign in to your account',
  signInSubtitle: 'Welcome back. Enter your e-mail and password to continue.',
  signInSubmit: 'Sign in',
  signInBusy: 'Signing in…',
  /** Text before the sign-up link on the sign-in page. */
  signUpPrompt: 'New here?',
  signUpLink: 'Create an account',
  /** Sign-up title while the project name loads. */
  signUpTitle: 'Sign up',
  signUpTitleWithProject: ({ projectName }: { projectName: string }) => `Sign up for ${projectName}`,
  /** Sign-up title when the project name cannot be known. */
  signUpTitleUnnamed: 'Create your account',
  signUpSubtitle: 'Enter your e-mail and choose a password to get started.',
  signUpSubmit: 'Create account',
  signUpBusy: 'Creating account…',
  /** Text before the sign-in link on the sign-up page. */
  signInPrompt: 'Already have an account?',
  signInLink: 'Sign in',
  /** The sign-in and sign-up pages opened by somebody signed in, while they go on to where a sign-in ends. */
  signedInRedirecting: 'You are signed in. Taking you on…',
  /** The sign-in page's link to the forgot-password page. */
  forgotPasswordLink: 'Forgot password?',
};
