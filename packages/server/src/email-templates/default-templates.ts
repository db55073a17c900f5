/**
 * The built-in template of each type, written in the same document format an
 * admin edits (`template-document.ts`), so the editor opens on exactly what
 * users receive. Each says which project sent it, greets the user by name
 * when the name is known (a block naming a variable without a value is left
 * out), has one button, the raw link (and the code) as text for clients that
 * hide buttons, and a line for people who did not ask for the mail.
 */
import type { TemplateBlock, TemplateDocument } from './template-document.js';
import type { EmailTemplateType } from './template-types.js';

/** A template as stored or built in: a subject and a document. */
export interface TemplateSource {
  subject: string;
  content: TemplateDocument;
}

/** Colours of the built-in mails: a quiet backdrop, a white card, the product's indigo for the button. */
export const defaultColors = {
  backdrop: '#f4f4f5',
  canvas: '#ffffff',
  text: '#18181b',
  muted: '#71717a',
  rule: '#e4e4e7',
  button: '#4338ca',
  buttonText: '#ffffff',
} as const;

interface DefaultParts {
  subject: string;
  previewText: string;
  heading: string;
  intro: string;
  code?: string;
  /** A line after the intro, left out when a variable of it has no value. */
  byline?: string;
  button: string;
  link: string;
  ignore: string;
}

const parts: Record<EmailTemplateType, DefaultParts> = {
  email_verification: {
    subject: 'Verify your e-mail address for {{ projectDisplayName }}',
    previewText: 'Confirm that this address is yours.',
    heading: 'Verify your e-mail address',
    intro:
      'Please confirm that this address belongs to you, so that you can use it with {{ projectDisplayName }}. The link works for one day.',
    button: 'Verify e-mail address',
    link: 'emailVerificationLink',
    ignore: 'If you did not sign up for {{ projectDisplayName }}, you can ignore this e-mail.',
  },
  password_reset: {
    subject: 'Reset your {{ projectDisplayName }} password',
    previewText: 'Choose a new password. The link works for one hour.',
    heading: 'Reset your password',
    intro:
      'Someone asked to reset the password of your {{ projectDisplayName }} account. Choose a new one with the button below; the link works for one hour.',
    button: 'Choose a new password',
    link: 'passwordResetLink',
    ignore: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
  },
  magic_link: {
    subject: 'Sign in to {{ projectDisplayName }}',
    previewText: 'Your sign-in code works for ten minutes.',
    heading: 'Sign in to {{ projectDisplayName }}',
    intro: 'Enter this code on the sign-in page, or use the button below. Both work for ten minutes.',
    code: '{{ otp }}',
    button: 'Sign in',
    link: 'magicLink',
    ignore: 'If you did not try to sign in, you can ignore this e-mail.',
  },
  team_invitation: {
    // The team's name is written by whoever created the team: kept out of the subject, which clients show first.
    subject: 'You are invited to join a team on {{ projectDisplayName }}',
    previewText: 'You have been invited to a team.',
    heading: 'Join {{ teamDisplayName }}',
    intro:
      'You have been invited to join the team {{ teamDisplayName }} on {{ projectDisplayName }}. The invitation works for seven days.',
    byline: 'Invited by {{ inviterName }}.',
    button: 'Accept the invitation',
    link: 'teamInvitationLink',
    ignore: 'If you were not expecting this invitation, you can ignore this e-mail.',
  },
  new_device_sign_in: {
    subject: 'New sign-in to your {{ projectDisplayName }} account',
    previewText: 'Your account was signed in to from a browser it had not used before.',
    heading: 'New sign-in to your account',
    intro:
      'Your {{ projectDisplayName }} account was just signed in to from a browser it had not used before. If it was not you, end that session and change your password.',
    byline: 'Browser: {{ browser }}. Time: {{ signInTime }}.',
    button: 'Review your sessions',
    link: 'sessionsLink',
    ignore: 'If this was you, you can ignore this e-mail.',
  },
};

function textBlock(text: string, style?: { color?: string; fontSize?: number }): TemplateBlock {
  return { type: 'Text', data: { props: { text }, ...(style ? { style } : {}) } };
}

function buildDefault(type: EmailTemplateType): TemplateSource {
  const p = parts[type];
  const blocks: Record<string, TemplateBlock> = {
    project: textBlock('{{ projectDisplayName }}', { color: defaultColors.muted, fontSize: 14 }),
    heading: { type: 'Heading', data: { props: { text: p.heading, level: 'h1' } } },
    greeting: textBlock('Hi {{ userDisplayName }},'),
    intro: textBlock(p.intro),
    ...(p.byline ? { byline: textBlock(p.byline) } : {}),
    ...(p.code ? { code: { type: 'Code', data: { props: { text: p.code } } } satisfies TemplateBlock } : {}),
    button: {
      type: 'Button',
      data: {
        props: { text: p.button, url: `{{ ${p.link} }}` },
        style: { backgroundColor: defaultColors.button, color: defaultColors.buttonText },
      },
    },
    link: textBlock(`If the button does not work, open this link in your browser:\n{{ ${p.link} }}`, {
      fontSize: 14,
    }),
    divider: { type: 'Divider', data: { style: { color: defaultColors.rule } } },
    ignore: textBlock(p.ignore, { color: defaultColors.muted, fontSize: 13 }),
  };
  return {
    subject: p.subject,
    content: {
      schemaVersion: 5,
      root: {
        type: 'EmailLayout',
        data: {
          childrenIds: Object.keys(blocks),
          previewText: p.previewText,
          backdropColor: defaultColors.backdrop,
          canvasColor: defaultColors.canvas,
          textColor: defaultColors.text,
        },
      },
      ...blocks,
    },
  };
}

const defaults = Object.fromEntries(
  (Object.keys(parts) as EmailTemplateType[]).map((type) => [type, buildDefault(type)]),
) as Record<EmailTemplateType, TemplateSource>;

/**
 * The built-in subject and document of `type`. Callers get a fresh copy, so
 * changing it cannot change the default.
 *
 * @example
 * const { subject, content } = defaultTemplate('password_reset');
 * subject; // 'Reset your {{ projectDisplayName }} password'
 */
export function defaultTemplate(type: EmailTemplateType): TemplateSource {
  return structuredClone(defaults[type]);
}
