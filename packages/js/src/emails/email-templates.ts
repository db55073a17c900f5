/**
 * E-mail templates (wire-protocol.md §14.7, §15.8), admin access: the five
 * templates (defaults where not edited), an edit, a reset to the default, and
 * a preview of unsaved edits rendered with sample values. `AdminApp` mounts it.
 */
import type { EmailPreviewWire, EmailTemplateTypeWire, EmailTemplateWire, Json } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { type Fields, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import type { Query } from '../query.js';
import { ignoreAnswer } from '../users/users-api.js';

/**
 * Which mail a template is for.
 *
 * @example
 * ```ts
 * const type: EmailTemplateType = 'password_reset';
 * ```
 */
export type EmailTemplateType = EmailTemplateTypeWire;

/**
 * A template as the project uses it.
 *
 * @example
 * ```ts
 * const [verification] = (await adminApp.listEmailTemplates()).filter((t: EmailTemplate) => t.type === 'email_verification');
 * ```
 */
export interface EmailTemplate {
  type: EmailTemplateType;
  subject: string;
  /** The editor document (JSON) the mail's body is rendered from. */
  content: Json;
  /** `true` while the project uses the built-in template. */
  isDefault: boolean;
}

/**
 * Changes to a template (or unsaved edits to preview); fields left out stay as stored.
 *
 * @example
 * ```ts
 * const edit: EmailTemplateEdit = { subject: 'Your {{ projectDisplayName }} sign-in code' };
 * ```
 */
export interface EmailTemplateEdit {
  subject?: string;
  content?: Json;
}

/**
 * A template rendered with sample values, as a mail client would show it.
 *
 * @example
 * ```ts
 * const { subject, html } = await adminApp.previewEmailTemplate('magic_link', { subject: 'Sign in' });
 * ```
 */
export interface EmailPreview {
  subject: string;
  html: string;
  text: string;
}

/**
 * What an administrator does with the project's e-mail templates.
 *
 * @example
 * ```ts
 * await adminApp.updateEmailTemplate('password_reset', { subject: 'Reset your password' });
 * await adminApp.resetEmailTemplate('password_reset'); // back to the default
 * ```
 */
export interface EmailTemplates {
  /** The five templates (the four of the protocol and the new-device alert), the default of each type the project has not edited. */
  listEmailTemplates(): Promise<EmailTemplate[]>;
  /** Saves a subject and/or content for `type`; resolves with the template as stored. */
  updateEmailTemplate(type: EmailTemplateType, edit: EmailTemplateEdit): Promise<EmailTemplate>;
  /** Drops the project's edits of `type`: the default is used again. */
  resetEmailTemplate(type: EmailTemplateType): Promise<void>;
  /** Renders `edit` over the stored template of `type` with sample values, without saving. */
  previewEmailTemplate(type: EmailTemplateType, edit?: EmailTemplateEdit): Promise<EmailPreview>;
}

/** `GET /email-templates`. */
function listEmailTemplates(send: Send): Promise<EmailTemplate[]> {
  return send({ method: 'GET', path: '/email-templates' }, (body) =>
    readFields<{ items: EmailTemplateWire[] }, EmailTemplate[]>(body, (list) => list.list('items', readEmailTemplate)),
  );
}

/** `PATCH /email-templates/{type}`. */
function updateEmailTemplate(send: Send, type: EmailTemplateType, edit: EmailTemplateEdit): Promise<EmailTemplate> {
  return send({ method: 'PATCH', path: templatePath(type), body: editBody(edit) }, decodeEmailTemplate);
}

/** `DELETE /email-templates/{type}`. */
function resetEmailTemplate(send: Send, type: EmailTemplateType): Promise<void> {
  return send({ method: 'DELETE', path: templatePath(type) }, ignoreAnswer);
}

/** `POST /email-templates/{type}/preview`. */
function previewEmailTemplate(send: Send, type: EmailTemplateType, edit: EmailTemplateEdit): Promise<EmailPreview> {
  return send({ method: 'POST', path: `${templatePath(type)}/preview`, body: editBody(edit) }, decodeEmailPreview);
}

/** Reads one template of an answer. */
function readEmailTemplate(template: Fields<EmailTemplateWire>): EmailTemplate {
  return {
    type: template.value('type', isTemplateType, 'an e-mail template type'),
    subject: template.string('subject'),
    content: template.json('content'),
    isDefault: template.boolean('is_default'),
  };
}

/** Decodes a template answer (`PATCH /email-templates/{type}`). */
export function decodeEmailTemplate(body: unknown): EmailTemplate {
  return readFields(body, readEmailTemplate);
}

/** Decodes a preview answer. */
export function decodeEmailPreview(body: unknown): EmailPreview {
  return readFields<EmailPreviewWire, EmailPreview>(body, (preview) => ({
    subject: preview.string('subject'),
    html: preview.string('html'),
    text: preview.string('text'),
  }));
}

/**
 * The project's five e-mail templates, as a query of `AdminApp`; an edit or a reset re-reads it.
 *
 * @example
 * ```ts
 * const templates = await adminApp.load(emailTemplatesQuery);
 * ```
 */
export const emailTemplatesQuery: Query<EmailTemplate[], AdminScope> = {
  key: ['emailTemplates'],
  load: ({ send }) => listEmailTemplates(send),
};

/** Mounts the e-mail templates module on an audience with admin access. */
export function emailTemplates(scope: AudienceScope): EmailTemplates {
  const { send } = scope;
  return {
    listEmailTemplates: () => listEmailTemplates(send),
    updateEmailTemplate: (type, edit) => updateEmailTemplate(send, type, edit),
    resetEmailTemplate: (type) => resetEmailTemplate(send, type),
    previewEmailTemplate: (type, edit = {}) => previewEmailTemplate(send, type, edit),
  };
}

const templateTypes: readonly string[] = [
  'email_verification',
  'password_reset',
  'magic_link',
  'team_invitation',
  'new_device_sign_in',
] satisfies EmailTemplateType[];

function isTemplateType(value: unknown): boolean {
  return typeof value === 'string' && templateTypes.includes(value);
}

function editBody(edit: EmailTemplateEdit): Record<string, unknown> {
  return definedFields({ subject: edit.subject, content: edit.content });
}

function templatePath(type: EmailTemplateType): string {
  return `/email-templates/${encodeURIComponent(type)}`;
}
