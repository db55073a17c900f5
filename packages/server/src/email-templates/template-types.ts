/**
 * The four e-mail template types (wire-protocol §15.8) and the variables each
 * one is rendered with. Every type also gets `projectDisplayName`.
 */

export const emailTemplateTypes = ['email_verification', 'password_reset', 'magic_link', 'team_invitation'] as const;

export type EmailTemplateType = (typeof emailTemplateTypes)[number];

/** The variables of each template type. Values are plain text; rendering escapes them. */
export interface EmailTemplateVariables {
  email_verification: { userDisplayName: string | null; emailVerificationLink: string };
  password_reset: { userDisplayName: string | null; passwordResetLink: string };
  magic_link: { userDisplayName: string | null; magicLink: string; otp: string };
  team_invitation: { userDisplayName: string | null; teamDisplayName: string; teamInvitationLink: string };
}
