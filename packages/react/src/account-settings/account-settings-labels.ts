/**
 * Words of the account settings page: its navigation and the profile,
 * e-mails, connected accounts and password sections. The English table is the
 * one declaration: the label type derives from it, and `labels` overrides
 * (provider, page) reword any entry.
 */

/** English accountSettings words; entries that embed a value are functions of a named object. */
export const accountSettingsLabels = {
  /** Account settings: the page and its navigation. */
  accountSettingsTitle: 'Account settings',
  accountSettingsSubtitle: 'Manage your profile, your e-mail addresses and your password.',
  /** Accessible name of the section navigation. */
  accountSettingsNav: 'Account settings sections',
  accountSettingsLoading: 'Loading your account…',
  accountSave: 'Save',
  accountSaving: 'Saving…',
  accountSaved: 'Saved.',
  accountCancel: 'Cancel',
  /** Account settings, Profile section. */
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
  /** Account settings, E-mails section. */
  accountEmailsTitle: 'E-mails',
  accountEmailsDescription: 'The addresses of your account and which of them you sign in with.',
  accountEmailsListTitle: 'Your e-mail addresses',
  accountEmailsListDescription: 'Account e-mails go to the primary address.',
  accountEmailsLoading: 'Loading your e-mail addresses…',
  accountEmailsLoadFailed: 'Your e-mail addresses could not be loaded.',
  accountEmailsEmpty: 'No e-mail address yet.',
  /** Badges of an address. */
  accountEmailPrimary: 'Primary',
  accountEmailVerified: 'Verified',
  accountEmailUnverified: 'Unverified',
  accountEmailSignIn: 'Used for sign-in',
  /** Accessible name of an address's menu button. */
  accountEmailOptionsFor: ({ email }: { email: string }) => `Options for ${email}`,
  accountEmailVerify: 'Verify',
  accountEmailSendVerification: 'Send verification e-mail',
  accountEmailVerificationSent: ({ email }: { email: string }) =>
    `We sent a verification link to ${email}. Open it to verify the address.`,
  accountEmailMakePrimary: 'Make primary',
  accountEmailMadePrimary: ({ email }: { email: string }) => `${email} is now your primary e-mail.`,
  accountEmailUseForSignIn: 'Use for sign-in',
  accountEmailStopSignIn: 'Stop using for sign-in',
  accountEmailSignInOn: ({ email }: { email: string }) => `You can now sign in with ${email}.`,
  accountEmailSignInOff: ({ email }: { email: string }) => `${email} no longer signs you in.`,
  accountEmailRemove: 'Remove',
  accountEmailRemoveConfirm: ({ email }: { email: string }) => `Remove ${email}?`,
  /** Added to the confirmation when the address signs in. */
  accountEmailRemoveWarning: 'You will no longer be able to sign in with it.',
  accountEmailRemoveSubmit: 'Remove address',
  accountEmailAddTitle: 'Add an e-mail address',
  accountEmailAddDescription: 'Verify it afterwards to make it primary or sign in with it.',
  accountEmailAddLabel: 'New e-mail address',
  accountEmailAddSubmit: 'Add',
  accountEmailAddBusy: 'Adding…',
  accountEmailAdded: ({ email }: { email: string }) => `${email} was added.`,
  /** Account settings, Connected accounts section. */
  accountConnectedTitle: 'Connected accounts',
  accountConnectedDescription: 'Accounts at other providers you can sign in with.',
  accountConnectedListTitle: 'Your connected accounts',
  accountConnectedEmpty: 'No account is connected yet.',
  /** A connected account without an e-mail at the provider. */
  accountConnectedNoEmail: 'No e-mail shared',
  accountConnectedAddTitle: 'Connect an account',
  accountConnect: ({ provider }: { provider: string }) => `Connect ${provider}`,
  accountDisconnect: 'Disconnect',
  accountDisconnectConfirm: ({ provider }: { provider: string }) =>
    `Disconnect ${provider}? You will no longer sign in with it.`,
  accountDisconnected: ({ provider }: { provider: string }) => `${provider} was disconnected.`,
  /** Account settings, Password section. */
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
  /** A refused current password. */
  accountCurrentPasswordWrong: 'Your current password is not correct.',
  accountNewPasswordRequired: 'Enter a new password.',
  accountPasswordsDiffer: 'The two passwords are not the same.',
};
