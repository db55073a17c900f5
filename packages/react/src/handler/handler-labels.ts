/**
 * Words of the pages the `Handler` serves itself: signing out, and a path it
 * does not know. The English table is the one declaration: the label type
 * derives from it, and `labels` overrides (provider, page) reword any entry.
 */

/** English handler words; entries that embed a value are functions of a named object. */
export const handlerLabels = {
  signOutTitle: 'Signing out…',
  signOutSubtitle: 'You will be redirected in a moment.',
  /** Status text beside the spinner while signing out. */
  signOutStatus: 'Ending your session',
  signOutFailedTitle: 'Could not sign you out',
  notFoundTitle: 'Page not found',
  notFoundSubtitle: 'The page you are looking for does not exist or has moved.',
  notFoundHome: 'Go to the home page',
};
