/**
 * Words of sign-in with an OAuth provider: the buttons, the callback and the
 * error page. The English table is the one declaration: the label type
 * derives from it, and `labels` overrides (provider, page) reword any entry.
 */

/** English oauth words; entries that embed a value are functions of a named object. */
export const oauthLabels = {
  /** A provider button on the sign-in and sign-up pages ("Continue with GitHub"). */
  oauthContinueWith: ({ provider }: { provider: string }) => `Continue with ${provider}`,
  /** Accessible status while the page goes to the provider. */
  oauthRedirecting: 'Taking you to the provider…',
  /** The OAuth callback page while it signs in. */
  oauthCallbackSigningIn: 'Signing you in…',
  /** The OAuth callback page when signing in failed (spec: "Error signing in during OAuth callback. Please try again."). */
  oauthCallbackFailedTitle: 'Error signing in during OAuth callback. Please try again.',
  /** The error page (`urls.error`), by the error code it was sent. */
  oauthErrorTitle: 'Something went wrong',
  oauthErrorText: 'Signing in did not work. Please try again.',
  oauthAccessDeniedTitle: 'Sign-in was cancelled',
  oauthAccessDeniedText: 'You cancelled at the provider, or it did not let you in. Nothing was changed.',
  oauthEmailInUseTitle: 'This e-mail belongs to another account',
  oauthEmailInUseText:
    'The provider gave an e-mail address that another account already signs in with. Sign in to that account, then connect the provider from your account settings.',
  oauthAccountInUseTitle: 'This provider account is connected elsewhere',
  oauthAccountInUseText:
    'That account at the provider is already connected to another user here. Sign in to that user, or disconnect it there first.',
  oauthTimeoutTitle: 'Sign-in took too long',
  oauthTimeoutText: 'The sign-in flow expired or was started in another browser. Please start again.',
  oauthSignUpClosedTitle: 'Sign-up is closed',
  oauthSignUpClosedText: 'This app does not accept new accounts. Sign in with an account you already have.',
  /** On the page a provider sign-in started from, when it was cancelled (or refused) at the provider. */
  oauthCancelledNotice: 'Signing in with the provider was cancelled, so nothing changed.',
  /** On the page a provider sign-in started from, when the provider's e-mail is an existing account's; a link follows. */
  oauthEmailInUseNotice:
    'An account already signs in with this e-mail address: sign in to it the usual way, then connect the provider from your account settings.',
  /** The link after `oauthEmailInUseNotice`: sign-in, then account settings' connected accounts. */
  oauthEmailInUseSignIn: 'Sign in, then connect it',
  /** The error code under the message, for support. */
  oauthErrorCode: ({ code }: { code: string }) => `Error code: ${code}`,
};
