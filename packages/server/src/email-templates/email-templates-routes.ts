/**
 * E-mail templates over the API (wire-protocol §14.7, §15.8), admin access
 * only: the five templates (the default where the project has not edited
 * one), one template, an edit, a reset to the default, and a preview of
 * unsaved edits rendered with sample values for the dashboard.
 *
 * An edit is checked whole before anything is written: the document's
 * structure (`templateDocumentSchema`) and, for the type, its placeholders and
 * button links (`templateProblems`); a refused edit changes nothing.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { jsonValue, successAnswer } from '../common/schemas.js';
import type { Deps } from '../deps.js';
import { requestContext } from '../events/recorder.js';
import type { RequestAuth } from '../http/env.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import type { JsonValue } from '../storage/schema.js';
import { defaultTemplate, type TemplateSource } from './default-templates.js';
import { findStoredTemplate, listStoredTemplates, type StoredTemplate } from './email-template-store.js';
import { resetEmailTemplate as resetTemplate, saveEmailTemplate } from './email-templates-actions.js';
import { renderTemplate, usableTemplate } from './render-email.js';
import { type TemplateDocument, templateDocumentSchema, templateProblems } from './template-document.js';
import { type EmailTemplateType, emailTemplateTypes, sampleVariables } from './template-types.js';

const templateType = z.enum(emailTemplateTypes);

const templateSchema = z
  .object({ type: templateType, subject: z.string(), content: jsonValue, is_default: z.boolean() })
  .meta({ id: 'EmailTemplate' });

const templateListSchema = z.object({ items: z.array(templateSchema), is_paginated: z.literal(false) });

const previewSchema = z
  .object({ subject: z.string(), html: z.string(), text: z.string() })
  .meta({ id: 'EmailPreview', description: 'A template rendered with sample values.' });

const subject = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((value) => !/[\p{Cc}\u2028\u2029]/u.test(value), {
    message: 'must be one line (no line breaks or control characters)',
  });

const editBody = z.strictObject({ subject: subject.optional(), content: templateDocumentSchema.optional() });

const typeParams = z.object({ type: templateType });

type TemplateAnswer = z.input<typeof templateSchema>;

function templateView(type: EmailTemplateType, stored: StoredTemplate | undefined): TemplateAnswer {
  if (!stored) {
    const builtIn = defaultTemplate(type);
    return { type, subject: builtIn.subject, content: builtIn.content as unknown as JsonValue, is_default: true };
  }
  return { type, subject: stored.subject, content: stored.content, is_default: false };
}

/** The edit laid over what the project uses now; SCHEMA_ERROR when the result is not a valid template of `type`. */
function editedTemplate(
  type: EmailTemplateType,
  stored: StoredTemplate | undefined,
  edit: { subject?: string; content?: TemplateDocument },
): TemplateSource {
  const problems = templateProblems(type, edit.subject, edit.content);
  if (problems.length > 0) throw new KnownError('SCHEMA_ERROR', { message: problems.join('; ') });
  const current = usableTemplate(type, stored);
  return { subject: edit.subject ?? current.subject, content: edit.content ?? current.content };
}

const listEmailTemplates = defineRoute({
  method: 'GET',
  path: '/email-templates',
  tag: 'email-templates',
  summary: "The project's five e-mail templates, the built-in default of each type it has not edited.",
  access: 'admin',
  answer: templateListSchema,
  errors: [],
  handler: async ({ auth, deps }) => {
    const stored = await listStoredTemplates(deps.db, auth.project.id);
    return {
      items: emailTemplateTypes.map((type) => templateView(type, stored.get(type))),
      is_paginated: false as const,
    };
  },
});

const getEmailTemplate = defineRoute({
  method: 'GET',
  path: '/email-templates/:type',
  tag: 'email-templates',
  summary: "One of the project's e-mail templates (the default when it has not been edited).",
  access: 'admin',
  params: typeParams,
  answer: templateSchema,
  errors: [],
  handler: async ({ auth, params, deps }) =>
    templateView(params.type, await findStoredTemplate(deps.db, auth.project.id, params.type)),
});

/**
 * Under the shared e-mail config a project's mail goes out through the operator's server, under the operator's
 * name: edits are refused there (as the original backend refuses them, whatever the body) unless that mail lands
 * in the dev mailbox and so never leaves the machine.
 */
function editableTemplates({ auth, deps }: { auth: RequestAuth; deps: Deps }): void {
  if (auth.project.config.email_config.type === 'shared' && !deps.sharedMailStaysLocal) {
    throw new StatusRefusal(
      400,
      'Cannot update email templates in shared email config. Set up a custom email config to update email templates.',
    );
  }
}

const updateEmailTemplate = defineRoute({
  method: 'PATCH',
  path: '/email-templates/:type',
  tag: 'email-templates',
  summary:
    'Saves a subject and/or body document for the type (the other part is kept). Placeholders must name variables of ' +
    "the type; a button's URL must be a link variable. An empty layout sends the default body.",
  access: 'admin',
  precondition: editableTemplates,
  params: typeParams,
  body: editBody,
  answer: templateSchema,
  errors: [],
  refusals: [400],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const stored = await findStoredTemplate(deps.db, auth.project.id, params.type);
    if (body.subject === undefined && body.content === undefined) return templateView(params.type, stored);
    const next = editedTemplate(params.type, stored, body);
    const fields = (['subject', 'content'] as const).filter((field) => body[field] !== undefined);
    const saved = await saveEmailTemplate(
      requestContext(input),
      params.type,
      { subject: next.subject, content: next.content as unknown as JsonValue, fields },
      stored !== undefined,
    );
    return templateView(params.type, saved);
  },
});

const resetEmailTemplate = defineRoute({
  method: 'DELETE',
  path: '/email-templates/:type',
  tag: 'email-templates',
  summary: "Drops the project's edits of the type: the built-in default is used again.",
  access: 'admin',
  params: typeParams,
  answer: successAnswer,
  errors: [],
  handler: async (input) => {
    await resetTemplate(requestContext(input), input.params.type);
    return { success: true as const };
  },
});

const previewEmailTemplate = defineRoute({
  method: 'POST',
  path: '/email-templates/:type/preview',
  tag: 'email-templates',
  summary:
    'Renders the template with sample values, with the unsaved subject and/or document given laid over the stored ' +
    'template; nothing is saved.',
  access: 'admin',
  params: typeParams,
  body: editBody,
  answer: previewSchema,
  errors: [],
  handler: async ({ auth, params, body, deps }) => {
    const stored = await findStoredTemplate(deps.db, auth.project.id, params.type);
    const source = editedTemplate(params.type, stored, body);
    return renderTemplate(auth.project, params.type, source, sampleVariables[params.type]);
  },
});

export const emailTemplateRoutes: Route[] = [
  listEmailTemplates,
  getEmailTemplate,
  updateEmailTemplate,
  resetEmailTemplate,
  previewEmailTemplate,
];
