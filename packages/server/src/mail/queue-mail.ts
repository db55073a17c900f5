/**
 * Queues a project's templated mail: renders the template and writes the
 * outbox row. Call it in the transaction that writes what the mail carries.
 */
import { renderEmail } from '../email-templates/render-email.js';
import type { EmailTemplateType, EmailTemplateVariables } from '../email-templates/template-types.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import { enqueueMail } from './outbox-store.js';

export interface TemplatedMail<T extends EmailTemplateType> {
  project: ProjectRecord;
  type: T;
  to: string;
  variables: EmailTemplateVariables[T];
  now: number;
}

export async function queueTemplatedMail<T extends EmailTemplateType>(db: Db, mail: TemplatedMail<T>): Promise<void> {
  const rendered = await renderEmail(db, mail.project, mail.type, mail.variables);
  await enqueueMail(db, { projectId: mail.project.id, kind: mail.type, to: mail.to, now: mail.now, ...rendered });
}
