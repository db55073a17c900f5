/**
 * Words of a link that cannot be used (missing or unknown code, expired,
 * used, too many attempts). The English table is the one declaration: the
 * label type derives from it, and `labels` overrides (provider, page) reword
 * any entry.
 */

/** English linkCode words; entries that embed a value are functions of a named object. */
export const linkCodeLabels = {
  /** Unusable links (missing or unknown code, expired, used, too many attempts). */
  linkInvalidTitle: 'This link does not work',
  linkInvalidText: 'It may be incomplete. Open it again from the e-mail, or ask for a new one.',
  linkExpiredTitle: 'This link has expired',
  linkExpiredText: 'Links from our e-mails work for a limited time. Ask for a new one.',
  linkUsedTitle: 'This link was already used',
  linkUsedText: 'Each link works once. Ask for a new one if you still need it.',
  linkAttemptsTitle: 'This code is blocked',
  linkAttemptsText: 'It was entered wrongly too many times. Ask for a new one.',
};
