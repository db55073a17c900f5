/**
 * Words of the user button and its menu. The English table is the one
 * declaration: the label type derives from it, and `labels` overrides
 * (provider, page) reword any entry.
 */

/** English userButton words; entries that embed a value are functions of a named object. */
export const userButtonLabels = {
  /** Accessible name of the user button. */
  accountMenuFor: ({ name }: { name: string }) => `Account menu for ${name}`,
  /** Accessible name of the account menu; also the name shown for a user with no name nor e-mail. */
  accountMenu: 'Account',
  /** The menu item that opens the account settings page. */
  accountMenuSettings: 'Account settings',
  /** The menu item that signs out. */
  signOut: 'Sign out',
  signingOut: 'Signing out…',
};
