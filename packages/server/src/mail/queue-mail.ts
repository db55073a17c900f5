/**
 * Queues a project's templated mail: renders the template and writes the
 * outbox row, its content sealed (`sealed-mail.ts`). Call it in the
 * transaction that writes what the mail carries, on the service's database
 * handle (it carries the sealer).
 */
import { renderEmail } from '../email-templates/render-email.js';
import {
  type EmailTemplateType,
  type EmailTemplateVariables,
  templateVariables,
} from '../email-templates/template-types.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import { enqueueMail } from './outbox-store.js';
import { outboxSealerOf } from './sealed-mail.js';

export interface TemplatedMail<T extends EmailTemplateType> {
  project: ProjectRecord;
  type: T;
  to: string;
  variables: EmailTemplateVariables[T];
  now: number;
}

/** What stands for a code or link in the subject admins list. */
const masked = '[hidden]';

export async function queueTemplatedMail<T extends EmailTemplateType>(db: Db, mail: TemplatedMail<T>): Promise<void> {
  const rendered = await renderEmail(db, mail.project, mail.type, mail.variables);
  await enqueueMail(db, outboxSealerOf(db), {
    projectId: mail.project.id,
    kind: mail.type,
    to: mail.to,
    now: mail.now,
    listedSubject: maskCodes(rendered.subject, mail.type, mail.variables),
    ...rendered,
  });
}

/**
 * The subject with every value that works as a code (a link, the sign-in
 * code) masked: an edited template may put them in the subject, which the
 * outbox keeps in clear for the delivery status.
 */
function maskCodes<T extends EmailTemplateType>(
  subject: string,
  type: T,
  variables: EmailTemplateVariables[T],
): string {
  const given = variables as unknown as Record<string, string | null>;
  let listed = subject;
  for (const name of [...templateVariables[type].links, ...templateVariables[type].codes]) {
    const value = given[name];
    if (value) listed = listed.replaceAll(value, masked);
  }
  return listed;
}
