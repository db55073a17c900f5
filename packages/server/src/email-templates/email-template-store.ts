/**
 * A project's edited e-mail templates (`email_templates`). A type with no row
 * uses its built-in default; deleting the row goes back to it.
 */

import type { Db } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import type { EmailTemplateType } from './template-types.js';

/** A stored template: its subject and document as saved. */
export interface StoredTemplate {
  type: string;
  subject: string;
  content: JsonValue;
  updatedAt: Date;
}

/**
 * The project's edited templates, by type.
 *
 * @example
 * const edited = await listStoredTemplates(db, projectId); // Map { 'magic_link' => {...} }
 */
export async function listStoredTemplates(db: Db, projectId: string): Promise<Map<string, StoredTemplate>> {
  const rows = await db.selectFrom('email_templates').selectAll().where('project_id', '=', projectId).execute();
  return new Map(rows.map((row) => [row.type, toStored(row)]));
}

/**
 * The project's edited template of `type`, or undefined when it uses the default.
 *
 * @example
 * const stored = await findStoredTemplate(db, projectId, 'password_reset');
 */
export async function findStoredTemplate(
  db: Db,
  projectId: string,
  type: EmailTemplateType,
): Promise<StoredTemplate | undefined> {
  const row = await db
    .selectFrom('email_templates')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/**
 * Saves the project's template of `type` (created or replaced).
 *
 * @example
 * await saveTemplate(db, projectId, 'magic_link', { subject: 'Sign in', content }, new Date());
 */
export async function saveTemplate(
  db: Db,
  projectId: string,
  type: EmailTemplateType,
  template: { subject: string; content: JsonValue },
  now: Date,
): Promise<StoredTemplate> {
  const content = JSON.stringify(template.content);
  const row = await db
    .insertInto('email_templates')
    .values({ project_id: projectId, type, subject: template.subject, content, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(['project_id', 'type']).doUpdateSet({ subject: template.subject, content, updated_at: now }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toStored(row);
}

/**
 * Drops the project's edits of `type`; true when there were some.
 *
 * @example
 * await deleteTemplate(db, projectId, 'magic_link'); // the default is used again
 */
export async function deleteTemplate(db: Db, projectId: string, type: EmailTemplateType): Promise<boolean> {
  const result = await db
    .deleteFrom('email_templates')
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toStored(row: { type: string; subject: string; content: JsonValue; updated_at: Date }): StoredTemplate {
  return { type: row.type, subject: row.subject, content: row.content, updatedAt: row.updated_at };
}
