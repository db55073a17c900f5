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

  /** The sign-in page's link to the forgot-password page. */
  forgotPasswordLink: string;
  forgotPasswordTitle: string;
  forgotPasswordSubtitle: string;
  forgotPasswordSubmit: string;
  /** Busy text of the send buttons (reset link, sign-in code). */
  sendingBusy: string;
  checkInboxTitle: string;
  /** After a reset link was asked for; the same whether or not the account exists. */
  forgotPasswordSent: (values: { email: string }) => string;
  backToSignIn: string;

  passwordResetTitle: string;
  passwordResetSubtitle: string;
  /** Status text while the reset link is checked. */
  passwordResetChecking: string;
  newPasswordLabel: string;
  confirmPasswordLabel: string;
  passwordResetSubmit: string;
  passwordResetBusy: string;
  passwordResetDoneTitle: string;
  passwordResetDoneText: string;
  /** Action of an unusable reset or sign-in link. */
  requestNewLink: string;

  /** Unusable links (missing or unknown code, expired, used, too many attempts). */
  linkInvalidTitle: string;
  linkInvalidText: string;
  linkExpiredTitle: string;
  linkExpiredText: string;
  linkUsedTitle: string;
  linkUsedText: string;
  linkAttemptsTitle: string;
  linkAttemptsText: string;

  emailVerificationTitle: string;
  /** Status text while the verification link is checked. */
  emailVerificationChecking: string;
  emailVerifiedTitle: string;
  emailVerifiedText: string;
  /** A used verification link: the address is most likely verified already. */
  emailVerificationUsedText: string;
  continueLabel: string;

  /** The sign-in page's switch to the e-mailed code, and its separator. */
  magicLinkOption: string;
  orSeparator: string;
  magicLinkSubtitle: string;
  magicLinkSubmit: string;
  /** Back from the e-mailed code to the password form. */
  passwordOption: string;
  codeSentTo: (values: { email: string }) => string;
  codeLabel: string;
  sendCodeAgain: string;
  /** Announced once a new code is sent. */
  codeSentAgain: string;
  useAnotherEmail: string;
  /** The magic-link callback page while it signs in. */
  magicLinkSigningIn: string;
  magicLinkFailedTitle: string;

  /** A provider button on the sign-in and sign-up pages ("Continue with GitHub"). */
  oauthContinueWith: (values: { provider: string }) => string;
  /** Accessible status while the page goes to the provider. */
  oauthRedirecting: string;
  /** The OAuth callback page while it signs in. */
  oauthCallbackSigningIn: string;
  /** The OAuth callback page when signing in failed (spec: "Error signing in during OAuth callback. Please try again."). */
  oauthCallbackFailedTitle: string;
  /** The error page (`urls.error`), by the error code it was sent. */
  oauthErrorTitle: string;
  oauthErrorText: string;
  oauthAccessDeniedTitle: string;
  oauthAccessDeniedText: string;
  oauthEmailInUseTitle: string;
  oauthEmailInUseText: string;
  oauthAccountInUseTitle: string;
  oauthAccountInUseText: string;
  oauthTimeoutTitle: string;
  oauthTimeoutText: string;
  oauthSignUpClosedTitle: string;
  oauthSignUpClosedText: string;
  /** The error code under the message, for support. */
  oauthErrorCode: (values: { code: string }) => string;

  /** Accessible name of the user button. */
  accountMenuFor: (values: { name: string }) => string;
  /** Accessible name of the account menu; also the name shown for a user with no name nor e-mail. */
  accountMenu: string;
  /** The menu item that opens the account settings page. */
  accountMenuSettings: string;
  /** The menu item that signs out. */
  signOut: string;
  signingOut: string;

  /** Account settings: the page and its navigation. */
  accountSettingsTitle: string;
  accountSettingsSubtitle: string;
  /** Accessible name of the section navigation. */
  accountSettingsNav: string;
  accountSettingsLoading: string;
  accountSave: string;
  accountSaving: string;
  accountSaved: string;
  accountCancel: string;

  /** Account settings, Profile section. */
  accountProfileTitle: string;
  accountProfileDescription: string;
  accountDisplayNameTitle: string;
  accountDisplayNameDescription: string;
  accountDisplayNameLabel: string;
  accountDisplayNamePlaceholder: string;
  accountImageTitle: string;
  accountImageDescription: string;
  accountImageUpload: string;
  accountImageRemove: string;
  accountImageUrlLabel: string;
  accountImageUrlSubmit: string;
  accountImageUrlInvalid: string;
  accountImageUnreadable: string;
  accountImageTooLarge: string;
  accountImageUpdated: string;
  accountImageRemoved: string;

  /** Account settings, E-mails section. */
  accountEmailsTitle: string;
  accountEmailsDescription: string;
  accountEmailsListTitle: string;
  accountEmailsListDescription: string;
  accountEmailsLoading: string;
  accountEmailsLoadFailed: string;
  accountEmailsEmpty: string;
  /** Badges of an address. */
  accountEmailPrimary: string;
  accountEmailVerified: string;
  accountEmailUnverified: string;
  accountEmailSignIn: string;
  /** Accessible name of an address's menu button. */
  accountEmailOptionsFor: (values: { email: string }) => string;
  accountEmailVerify: string;
  accountEmailSendVerification: string;
  accountEmailVerificationSent: (values: { email: string }) => string;
  accountEmailMakePrimary: string;
  accountEmailMadePrimary: (values: { email: string }) => string;
  accountEmailUseForSignIn: string;
  accountEmailStopSignIn: string;
  accountEmailSignInOn: (values: { email: string }) => string;
  accountEmailSignInOff: (values: { email: string }) => string;
  accountEmailRemove: string;
  accountEmailRemoveConfirm: (values: { email: string }) => string;
  /** Added to the confirmation when the address signs in. */
  accountEmailRemoveWarning: string;
  accountEmailRemoveSubmit: string;
  accountEmailAddTitle: string;
  accountEmailAddDescription: string;
  accountEmailAddLabel: string;
  accountEmailAddSubmit: string;
  accountEmailAddBusy: string;
  accountEmailAdded: (values: { email: string }) => string;

  /** Account settings, Teams section. */
  accountTeamsTitle: string;
  accountTeamsDescription: string;
  accountTeamsListTitle: string;
  accountTeamsLoading: string;
  accountTeamsLoadFailed: string;
  accountTeamsEmpty: string;
  accountTeamSelected: string;
  accountTeamCreateTitle: string;
  accountTeamCreateLabel: string;
  accountTeamCreateSubmit: string;
  /** A team name form sent empty. */
  accountTeamNameRequired: string;
  accountTeamCreated: (values: { team: string }) => string;
  accountTeamManage: (values: { team: string }) => string;
  accountTeamNameTitle: string;
  accountTeamNameLabel: string;
  accountTeamRenamed: (values: { team: string }) => string;
  accountTeamProfileTitle: string;
  accountTeamProfileDescription: string;
  accountTeamProfileLabel: string;
  accountTeamProfileSaved: string;
  accountTeamMembersTitle: string;
  accountTeamYou: string;
  accountTeamRemoveMember: (values: { member: string }) => string;
  accountTeamMemberRemoved: (values: { member: string }) => string;
  accountTeamInviteTitle: string;
  accountTeamInviteDescription: string;
  accountTeamInviteLabel: string;
  accountTeamInviteSubmit: string;
  accountTeamInvited: (values: { email: string }) => string;
  accountTeamInvitationsTitle: string;
  accountTeamInvitationsEmpty: string;
  accountTeamInvitationExpires: (values: { date: string }) => string;
  accountTeamRevoke: (values: { email: string }) => string;
  accountTeamRevoked: (values: { email: string }) => string;
  accountTeamLeaveTitle: string;
  accountTeamLeave: string;
  accountTeamLeaveConfirm: (values: { team: string }) => string;
  accountTeamLeft: (values: { team: string }) => string;
  accountTeamDelete: string;
  accountTeamDeleteConfirm: (values: { team: string }) => string;
  accountTeamDeleted: (values: { team: string }) => string;
  /** A member without a name of their own. */
  accountTeamUnnamedMember: string;

  /** The team switcher. */
  teamSwitcherLabel: string;
  teamSwitcherNone: string;
  teamSwitcherCreate: string;

  /** The team-invitation page. */
  teamInvitationTitle: (values: { team: string }) => string;
  teamInvitationChecking: string;
  teamInvitationSentTo: (values: { email: string }) => string;
  teamInvitationSignInPrompt: string;
  teamInvitationSignIn: string;
  teamInvitationSignUp: string;
  teamInvitationAccept: string;
  teamInvitationAccepting: string;
  teamInvitationJoinedTitle: (values: { team: string }) => string;
  teamInvitationJoinedText: string;
  teamInvitationWrongAccount: (values: { email: string; current: string }) => string;
  teamInvitationSwitchAccount: string;
  teamInvitationVerifyFirst: (values: { email: string }) => string;
  teamInvitationTeamGoneTitle: string;
  teamInvitationTeamGoneText: string;

  /** Account settings, Connected accounts section. */
  accountConnectedTitle: string;
  accountConnectedDescription: string;
  accountConnectedListTitle: string;
  accountConnectedEmpty: string;
  /** A connected account without an e-mail at the provider. */
  accountConnectedNoEmail: string;
  accountConnectedAddTitle: string;
  accountConnect: (values: { provider: string }) => string;
  accountDisconnect: string;
  accountDisconnectConfirm: (values: { provider: string }) => string;
  accountDisconnected: (values: { provider: string }) => string;

  /** Account settings, Password section. */
  accountPasswordTitle: string;
  accountPasswordDescription: string;
  accountPasswordChangeTitle: string;
  accountPasswordChangeDescription: string;
  accountPasswordSetTitle: string;
  accountPasswordSetDescription: string;
  accountCurrentPasswordLabel: string;
  accountNewPasswordLabel: string;
  accountConfirmPasswordLabel: string;
  accountPasswordChangeSubmit: string;
  accountPasswordSetSubmit: string;
  accountPasswordChanged: string;
  accountPasswordSet: string;
  accountCurrentPasswordRequired: string;
  /** A refused current password. */
  accountCurrentPasswordWrong: string;
  accountNewPasswordRequired: string;
  accountPasswordsDiffer: string;
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

  forgotPasswordLink: 'Forgot password?',
  forgotPasswordTitle: 'Reset your password',
  forgotPasswordSubtitle: 'Enter the e-mail of your account and we will send you a link to choose a new password.',
  forgotPasswordSubmit: 'Send reset link',
  sendingBusy: 'Sending…',
  checkInboxTitle: 'Check your inbox',
  forgotPasswordSent: ({ email }) =>
    `If an account uses ${email}, a link to choose a new password is on its way. It works for one hour.`,
  backToSignIn: 'Back to sign in',

  passwordResetTitle: 'Choose a new password',
  passwordResetSubtitle: 'Type it twice to be sure it is right.',
  passwordResetChecking: 'Checking your link…',
  newPasswordLabel: 'New password',
  confirmPasswordLabel: 'Confirm new password',
  passwordResetSubmit: 'Save new password',
  passwordResetBusy: 'Saving…',
  passwordResetDoneTitle: 'Password changed',
  passwordResetDoneText: 'You can now sign in with your new password.',
  requestNewLink: 'Ask for a new link',

  linkInvalidTitle: 'This link does not work',
  linkInvalidText: 'It may be incomplete. Open it again from the e-mail, or ask for a new one.',
  linkExpiredTitle: 'This link has expired',
  linkExpiredText: 'Links from our e-mails work for a limited time. Ask for a new one.',
  linkUsedTitle: 'This link was already used',
  linkUsedText: 'Each link works once. Ask for a new one if you still need it.',
  linkAttemptsTitle: 'This code is blocked',
  linkAttemptsText: 'It was entered wrongly too many times. Ask for a new one.',

  emailVerificationTitle: 'Verifying your e-mail',
  emailVerificationChecking: 'Checking your link…',
  emailVerifiedTitle: 'E-mail verified',
  emailVerifiedText: 'Thank you: your e-mail address is confirmed.',
  emailVerificationUsedText: 'It was opened before, so your address is most likely verified already.',
  continueLabel: 'Continue',

  magicLinkOption: 'E-mail me a code',
  orSeparator: 'or',
  magicLinkSubtitle: 'We will e-mail you a code and a link to sign in with, no password needed.',
  magicLinkSubmit: 'Send me a code',
  passwordOption: 'Sign in with a password instead',
  codeSentTo: ({ email }) => `We sent a six-character code to ${email}. Type it below, or open the link in the e-mail.`,
  codeLabel: 'Code from the e-mail',
  sendCodeAgain: 'Send a new code',
  codeSentAgain: 'A new code is on its way; the previous one no longer works.',
  useAnotherEmail: 'Use another e-mail',
  magicLinkSigningIn: 'Signing you in…',
  magicLinkFailedTitle: 'Could not sign you in',

  oauthContinueWith: ({ provider }) => `Continue with ${provider}`,
  oauthRedirecting: 'Taking you to the provider…',
  oauthCallbackSigningIn: 'Signing you in…',
  oauthCallbackFailedTitle: 'Error signing in during OAuth callback. Please try again.',
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
  oauthErrorCode: ({ code }) => `Error code: ${code}`,

  accountMenuFor: ({ name }) => `Account menu for ${name}`,
  accountMenu: 'Account',
  accountMenuSettings: 'Account settings',
  signOut: 'Sign out',
  signingOut: 'Signing out…',

  accountSettingsTitle: 'Account settings',
  accountSettingsSubtitle: 'Manage your profile, your e-mail addresses and your password.',
  accountSettingsNav: 'Account settings sections',
  accountSettingsLoading: 'Loading your account…',
  accountSave: 'Save',
  accountSaving: 'Saving…',
  accountSaved: 'Saved.',
  accountCancel: 'Cancel',

  accountProfileTitle: 'Profile',
  accountProfileDescription: 'How you appear to others.',
  accountDisplayNameTitle: 'Display name',
  accountDisplayNameDescription: 'The name shown on your account.',
  accountDisplayNameLabel: 'Name',
  accountDisplayNamePlaceholder: 'Your name',
  accountImageTitle: 'Profile picture',
  accountImageDescription: 'Upload an image (it is cropped to a square) or use the address of one.',
  accountImageUpload: 'Upload image',
  accountImageRemove: 'Remove picture',
  accountImageUrlLabel: 'Image address',
  accountImageUrlSubmit: 'Use this image',
  accountImageUrlInvalid: 'Enter a web address starting with https:// or http://.',
  accountImageUnreadable: 'This file is not an image we can read. Try a PNG, JPEG or WebP.',
  accountImageTooLarge: 'This image cannot be made small enough. Try another one.',
  accountImageUpdated: 'Profile picture updated.',
  accountImageRemoved: 'Profile picture removed.',

  accountEmailsTitle: 'E-mails',
  accountEmailsDescription: 'The addresses of your account and which of them you sign in with.',
  accountEmailsListTitle: 'Your e-mail addresses',
  accountEmailsListDescription: 'Account e-mails go to the primary address.',
  accountEmailsLoading: 'Loading your e-mail addresses…',
  accountEmailsLoadFailed: 'Your e-mail addresses could not be loaded.',
  accountEmailsEmpty: 'No e-mail address yet.',
  accountEmailPrimary: 'Primary',
  accountEmailVerified: 'Verified',
  accountEmailUnverified: 'Unverified',
  accountEmailSignIn: 'Used for sign-in',
  accountEmailOptionsFor: ({ email }) => `Options for ${email}`,
  accountEmailVerify: 'Verify',
  accountEmailSendVerification: 'Send verification e-mail',
  accountEmailVerificationSent: ({ email }) =>
    `We sent a verification link to ${email}. Open it to verify the address.`,
  accountEmailMakePrimary: 'Make primary',
  accountEmailMadePrimary: ({ email }) => `${email} is now your primary e-mail.`,
  accountEmailUseForSignIn: 'Use for sign-in',
  accountEmailStopSignIn: 'Stop using for sign-in',
  accountEmailSignInOn: ({ email }) => `You can now sign in with ${email}.`,
  accountEmailSignInOff: ({ email }) => `${email} no longer signs you in.`,
  accountEmailRemove: 'Remove',
  accountEmailRemoveConfirm: ({ email }) => `Remove ${email}?`,
  accountEmailRemoveWarning: 'You will no longer be able to sign in with it.',
  accountEmailRemoveSubmit: 'Remove address',
  accountEmailAddTitle: 'Add an e-mail address',
  accountEmailAddDescription: 'Verify it afterwards to make it primary or sign in with it.',
  accountEmailAddLabel: 'New e-mail address',
  accountEmailAddSubmit: 'Add',
  accountEmailAddBusy: 'Adding…',
  accountEmailAdded: ({ email }) => `${email} was added.`,

  accountTeamsTitle: 'Teams',
  accountTeamsDescription: 'The teams you belong to, their members and invitations.',
  accountTeamsListTitle: 'Your teams',
  accountTeamsLoading: 'Loading your teams…',
  accountTeamsLoadFailed: 'Your teams could not be loaded.',
  accountTeamsEmpty: 'You are not in any team yet.',
  accountTeamSelected: 'Selected',
  accountTeamCreateTitle: 'Create a team',
  accountTeamCreateLabel: 'Team name',
  accountTeamCreateSubmit: 'Create team',
  accountTeamNameRequired: 'Enter a name.',
  accountTeamCreated: ({ team }) => `${team} was created.`,
  accountTeamManage: ({ team }) => `Manage ${team}`,
  accountTeamNameTitle: 'Team name',
  accountTeamNameLabel: 'Name',
  accountTeamRenamed: ({ team }) => `The team is now called ${team}.`,
  accountTeamProfileTitle: 'Your name in this team',
  accountTeamProfileDescription: 'Leave it empty to use your account name.',
  accountTeamProfileLabel: 'Display name in this team',
  accountTeamProfileSaved: 'Your name in this team was saved.',
  accountTeamMembersTitle: 'Members',
  accountTeamYou: 'You',
  accountTeamRemoveMember: ({ member }) => `Remove ${member}`,
  accountTeamMemberRemoved: ({ member }) => `${member} was removed from the team.`,
  accountTeamInviteTitle: 'Invite someone',
  accountTeamInviteDescription: 'They get an e-mail with a link to join.',
  accountTeamInviteLabel: 'E-mail address',
  accountTeamInviteSubmit: 'Send invitation',
  accountTeamInvited: ({ email }) => `An invitation was sent to ${email}.`,
  accountTeamInvitationsTitle: 'Pending invitations',
  accountTeamInvitationsEmpty: 'No pending invitations.',
  accountTeamInvitationExpires: ({ date }) => `Expires ${date}`,
  accountTeamRevoke: ({ email }) => `Revoke the invitation to ${email}`,
  accountTeamRevoked: ({ email }) => `The invitation to ${email} was revoked.`,
  accountTeamLeaveTitle: 'Leave or delete',
  accountTeamLeave: 'Leave team',
  accountTeamLeaveConfirm: ({ team }) => `Leave ${team}? You will need a new invitation to come back.`,
  accountTeamLeft: ({ team }) => `You left ${team}.`,
  accountTeamDelete: 'Delete team',
  accountTeamDeleteConfirm: ({ team }) => `Delete ${team} for everyone? Its members and invitations go with it.`,
  accountTeamDeleted: ({ team }) => `${team} was deleted.`,
  accountTeamUnnamedMember: 'Unnamed member',

  teamSwitcherLabel: 'Team',
  teamSwitcherNone: 'No team',
  teamSwitcherCreate: 'Create a team…',

  teamInvitationTitle: ({ team }) => `Join ${team}`,
  teamInvitationChecking: 'Checking your invitation…',
  teamInvitationSentTo: ({ email }) => `This invitation was sent to ${email}.`,
  teamInvitationSignInPrompt: 'Sign in or create an account with that address to join.',
  teamInvitationSignIn: 'Sign in',
  teamInvitationSignUp: 'Create an account',
  teamInvitationAccept: 'Join team',
  teamInvitationAccepting: 'Joining…',
  teamInvitationJoinedTitle: ({ team }) => `You joined ${team}`,
  teamInvitationJoinedText: 'You are now a member of the team.',
  teamInvitationWrongAccount: ({ email, current }) =>
    `This invitation was sent to ${email}, but you are signed in as ${current}. Sign in with the invited address, or add it to your account, to join.`,
  teamInvitationSwitchAccount: 'Sign in with another account',
  teamInvitationVerifyFirst: ({ email }) =>
    `Verify ${email} before you join: the team accepts the invited address only once you have proven it is yours.`,
  teamInvitationTeamGoneTitle: 'This team no longer exists',
  teamInvitationTeamGoneText: 'The team was deleted after the invitation was sent.',

  accountConnectedTitle: 'Connected accounts',
  accountConnectedDescription: 'Accounts at other providers you can sign in with.',
  accountConnectedListTitle: 'Your connected accounts',
  accountConnectedEmpty: 'No account is connected yet.',
  accountConnectedNoEmail: 'No e-mail shared',
  accountConnectedAddTitle: 'Connect an account',
  accountConnect: ({ provider }) => `Connect ${provider}`,
  accountDisconnect: 'Disconnect',
  accountDisconnectConfirm: ({ provider }) => `Disconnect ${provider}? You will no longer sign in with it.`,
  accountDisconnected: ({ provider }) => `${provider} was disconnected.`,

  accountPasswordTitle: 'Password',
  accountPasswordDescription: 'The password you sign in with.',
  accountPasswordChangeTitle: 'Change password',
  accountPasswordChangeDescription: 'Enter your current password, then the new one twice.',
  accountPasswordSetTitle: 'Set a password',
  accountPasswordSetDescription:
    'You sign in without a password so far. Set one to sign in with your e-mail and a password too.',
  accountCurrentPasswordLabel: 'Current password',
  accountNewPasswordLabel: 'New password',
  accountConfirmPasswordLabel: 'Confirm new password',
  accountPasswordChangeSubmit: 'Change password',
  accountPasswordSetSubmit: 'Set password',
  accountPasswordChanged: 'Your password was changed.',
  accountPasswordSet: 'Your password was set. You can now sign in with it.',
  accountCurrentPasswordRequired: 'Enter your current password.',
  accountCurrentPasswordWrong: 'Your current password is not correct.',
  accountNewPasswordRequired: 'Enter a new password.',
  accountPasswordsDiffer: 'The two passwords are not the same.',
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
