/**
 * What changes a project's e-mail templates, for the routes: save an edit
 * (its first edit creates the project's template of the type) and reset a
 * type to the built-in default. Each is an action (`events/recorder.ts`).
 */
import { type ActionContext, act, record } from '../events/recorder.js';
import type { JsonValue } from '../storage/schema.js';
import { deleteTemplate, type StoredTemplate, saveTemplate } from './email-template-store.js';
import type { EmailTemplateType } from './template-types.js';

/** An edited template: the whole subject and document to store, and which parts the edit gave. */
export interface TemplateEdit {
  subject: string;
  content: JsonValue;
  fields: readonly ('subject' | 'content')[];
}

/**
 * Saves the project's template of `type`: `email_template.created` when the
 * type had no edits yet (`existed` false), `email_template.updated` otherwise.
 */
export function saveEmailTemplate(
  ctx: ActionContext,
  type: EmailTemplateType,
  edit: TemplateEdit,
  existed: boolean,
): Promise<StoredTemplate> {
  return act(ctx, async (tx) => {
    const saved = await saveTemplate(
      tx.db,
      ctx.projectId,
      type,
      { subject: edit.subject, content: edit.content },
      new Date(ctx.clock.now()),
    );
    await record(tx, existed ? 'email_template.updated' : 'email_template.created', {
      userId: null,
      data: { template_type: type, fields: [...edit.fields] },
    });
    return saved;
  });
}

/** Drops the project's edits of `type` (the default is used again); nothing is recorded when there were none. */
export function resetEmailTemplate(ctx: ActionContext, type: EmailTemplateType): Promise<void> {
  return act(ctx, async (tx) => {
    if (!(await deleteTemplate(tx.db, ctx.projectId, type))) return;
    await record(tx, 'email_template.reset', { userId: null, data: { template_type: type } });
  });
}
