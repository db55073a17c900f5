/**
 * The e-mail template types (the four of wire-protocol §15.8, and the
 * new-device alert, an extension) and the variables each one is rendered
 * with. Every type also gets `projectDisplayName`.
 */

export const emailTemplateTypes = [
  'email_verification',
  'password_reset',
  'magic_link',
  'team_invitation',
  'new_device_sign_in',
] as const;

export type EmailTemplateType = (typeof emailTemplateTypes)[number];

/** The variables of each template type. Values are plain text; rendering escapes them. */
export interface EmailTemplateVariables {
  email_verification: { userDisplayName: string | null; emailVerificationLink: string };
  password_reset: { userDisplayName: string | null; passwordResetLink: string };
  magic_link: { userDisplayName: string | null; magicLink: string; otp: string };
  team_invitation: {
    userDisplayName: string | null;
    teamDisplayName: string;
    /** Who invited: their display name and primary e-mail, or null when server code invited. */
    inviterName: string | null;
    teamInvitationLink: string;
  };
  new_device_sign_in: {
    userDisplayName: string | null;
    /** The browser that signed in, as its user agent names it (`Chrome on Windows`, else the user agent itself). */
    browser: string;
    /** When, in UTC (`2025-03-01 14:05 UTC`). */
    signInTime: string;
    /** The app's account settings, at its Sessions section. */
    sessionsLink: string;
  };
}

/** What a template of each type may name: its text variables and its link variables (the only URLs a mail holds). */
export interface TemplateVariableNames {
  readonly text: readonly string[];
  readonly links: readonly string[];
  /** The text variables that work as a code (kept out of anything stored in clear, as every link is). */
  readonly codes: readonly string[];
  /**
   * The text variables whose values another user wrote (a team's name, the
   * inviter's): rendered so that no mail client turns them into links, and in
   * a subject capped and quoted (`render-email.ts`).
   */
  readonly untrusted: readonly string[];
}

/**
 * The placeholders each type accepts, `projectDisplayName` included. Links
 * are listed apart: only they may be a button's URL, and they render as links.
 *
 * @example
 * templateVariables.magic_link.links; // ['magicLink']
 */
export const templateVariables: Readonly<Record<EmailTemplateType, TemplateVariableNames>> = {
  email_verification: {
    text: ['projectDisplayName', 'userDisplayName'],
    links: ['emailVerificationLink'],
    codes: [],
    untrusted: [],
  },
  password_reset: {
    text: ['projectDisplayName', 'userDisplayName'],
    links: ['passwordResetLink'],
    codes: [],
    untrusted: [],
  },
  magic_link: {
    text: ['projectDisplayName', 'userDisplayName', 'otp'],
    links: ['magicLink'],
    codes: ['otp'],
    untrusted: [],
  },
  team_invitation: {
    text: ['projectDisplayName', 'userDisplayName', 'teamDisplayName', 'inviterName'],
    links: ['teamInvitationLink'],
    codes: [],
    untrusted: ['teamDisplayName', 'inviterName'],
  },
  new_device_sign_in: {
    text: ['projectDisplayName', 'userDisplayName', 'browser', 'signInTime'],
    links: ['sessionsLink'],
    codes: [],
    // The user agent is whatever the signing-in client sent.
    untrusted: ['browser'],
  },
};

/**
 * Values a preview is rendered with, so an administrator sees a realistic mail.
 *
 * @example
 * sampleVariables.password_reset.passwordResetLink; // 'https://example.com/handler/password-reset?code=…'
 */
export const sampleVariables: { readonly [T in EmailTemplateType]: EmailTemplateVariables[T] } = {
  email_verification: {
    userDisplayName: 'Alex Example',
    emailVerificationLink: 'https://example.com/handler/email-verification?code=sample-code',
  },
  password_reset: {
    userDisplayName: 'Alex Example',
    passwordResetLink: 'https://example.com/handler/password-reset?code=sample-code',
  },
  magic_link: {
    userDisplayName: 'Alex Example',
    magicLink: 'https://example.com/handler/magic-link-callback?code=sample-code',
    otp: 'K7QX2M',
  },
  team_invitation: {
    userDisplayName: 'Alex Example',
    teamDisplayName: 'Design Team',
    inviterName: 'Ada Lovelace (ada@example.com)',
    teamInvitationLink: 'https://example.com/handler/team-invitation?code=sample-code',
  },
  new_device_sign_in: {
    userDisplayName: 'Alex Example',
    browser: 'Firefox on Windows',
    signInTime: '2025-03-01 14:05 UTC',
    sessionsLink: 'https://example.com/handler/account-settings#sessions',
  },
};
