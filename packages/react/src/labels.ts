/**
 * Interface text of the components (titles, buttons, links, field labels),
 * apart from the wording of errors (`messages.ts`). `englishLabels` is the
 * one table to translate: give a partial table to reword a few entries, or a
 * whole `LatchkeyLabels` object to translate them all, through the `labels`
 * prop of `LatchkeyProvider` (every component below it) or of a page.
 */
import type { LatchkeyMessages } from './messages.js';

/**
 * Every piece of interface text. Entries that embed a value are functions of
 * a named object, so a translation can place the value where its grammar
 * wants it.
 *
 * @example
 * ```ts
 * const french: LatchkeyLabels = {
 *   ...englishLabels, // start from English, then translate each entry
 *   signInTitleWithProject: ({ projectName }) => `Se connecter à ${projectName}`,
 *   showPassword: 'Afficher le mot de passe',
 * };
 * ```
 */
export interface LatchkeyLabels {
  /** Sign-in title while the project name loads. */
  signInTitle: string;
  signInTitleWithProject: (values: { projectName: string }) => string;
  /** Sign-in title when the project name cannot be known. */
  signInTitleUnnamed: string;
  signInSubtitle: string;
  signInSubmit: string;
  signInBusy: string;
  /** Text before the sign-up link on the sign-in page. */
  signUpPrompt: string;
  signUpLink: string;

  /** Sign-up title while the project name loads. */
  signUpTitle: string;
  signUpTitleWithProject: (values: { projectName: string }) => string;
  /** Sign-up title when the project name cannot be known. */
  signUpTitleUnnamed: string;
  signUpSubtitle: string;
  signUpSubmit: string;
  signUpBusy: string;
  /** Text before the sign-in link on the sign-up page. */
  signInPrompt: string;
  signInLink: string;

  emailLabel: string;
  emailPlaceholder: string;
  passwordLabel: string;
  /** Hint under a new password (sign-up). */
  newPasswordHint: (values: { minLength: number }) => string;
  /** Accessible name of the password toggle while hidden; should contain `showPasswordShort`. */
  showPassword: string;
  /** Accessible name of the password toggle while shown; should contain `hidePasswordShort`. */
  hidePassword: string;
  /** Visible text of the password toggle while hidden. */
  showPasswordShort: string;
  /** Visible text of the password toggle while shown. */
  hidePasswordShort: string;

  signOutTitle: string;
  signOutSubtitle: string;
  /** Status text beside the spinner while signing out. */
  signOutStatus: string;
  signOutFailedTitle: string;
  tryAgain: string;
  goHome: string;

  notFoundTitle: string;
  notFoundSubtitle: string;
  notFoundHome: string;

  /** Accessible name of the user button. */
  accountMenuFor: (values: { name: string }) => string;
  /** Accessible name of the account menu; also the name shown for a user with no name nor e-mail. */
  accountMenu: string;
  /** The menu item that signs out. */
  signOut: string;
  signingOut: string;
}

/**
 * The English interface text; the base every `labels` override applies to.
 *
 * @example
 * ```tsx
 * <SignIn labels={{ signInSubmit: 'Continue', signUpLink: 'Join now' }} />
 * console.log(englishLabels.passwordLabel); // "Password"
 * ```
 */
export const englishLabels: Readonly<LatchkeyLabels> = Object.freeze({
  signInTitle: 'Sign in',
  signInTitleWithProject: ({ projectName }) => `Sign in to ${projectName}`,
  signInTitleUnnamed: 'Sign in to your account',
  signInSubtitle: 'Welcome back. Enter your e-mail and password to continue.',
  signInSubmit: 'Sign in',
  signInBusy: 'Signing in…',
  signUpPrompt: 'New here?',
  signUpLink: 'Create an account',

  signUpTitle: 'Sign up',
  signUpTitleWithProject: ({ projectName }) => `Sign up for ${projectName}`,
  signUpTitleUnnamed: 'Create your account',
  signUpSubtitle: 'Enter your e-mail and choose a password to get started.',
  signUpSubmit: 'Create account',
  signUpBusy: 'Creating account…',
  signInPrompt: 'Already have an account?',
  signInLink: 'Sign in',

  emailLabel: 'E-mail',
  emailPlaceholder: 'you@example.com',
  passwordLabel: 'Password',
  newPasswordHint: ({ minLength }) => `At least ${minLength} characters.`,
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  showPasswordShort: 'Show',
  hidePasswordShort: 'Hide',

  signOutTitle: 'Signing out…',
  signOutSubtitle: 'You will be redirected in a moment.',
  signOutStatus: 'Ending your session',
  signOutFailedTitle: 'Could not sign you out',
  tryAgain: 'Try again',
  goHome: 'Go home',

  notFoundTitle: 'Page not found',
  notFoundSubtitle: 'The page you are looking for does not exist or has moved.',
  notFoundHome: 'Go to the home page',

  accountMenuFor: ({ name }) => `Account menu for ${name}`,
  accountMenu: 'Account',
  signOut: 'Sign out',
  signingOut: 'Signing out…',
} satisfies LatchkeyLabels);

/**
 * All the words of the components in one object: interface text (`labels`)
 * and the wording of errors (`messages`). Its two fields are the props of the
 * same names on `LatchkeyProvider`, `Handler` and the pages, so a whole
 * translation spreads onto any of them.
 *
 * @example
 * ```tsx
 * const french: LatchkeyTranslation = {
 *   labels: { signInSubmit: 'Se connecter', passwordLabel: 'Mot de passe' },
 *   messages: { EMAIL_PASSWORD_MISMATCH: 'E-mail ou mot de passe incorrect.' },
 * };
 * <LatchkeyProvider app={app} {...french}>…</LatchkeyProvider>
 * ```
 */
export interface LatchkeyTranslation {
  /** Interface text over `englishLabels` (any subset). */
  labels?: Partial<LatchkeyLabels>;
  /** Wording of known errors and form messages (any subset). */
  messages?: LatchkeyMessages;
}
