/**
 * The two halves every code flow shares (reset, magic link, verification,
 * invitation): mailing a new code as a link, and checking a code a client
 * sent back under the per-client limit on guesses.
 */
import type { EmailTemplateType, EmailTemplateVariables } from '../email-templates/template-types.js';
import { queueTemplatedMail } from '../mail/queue-mail.js';
import type { ProjectRecord } from '../projects/projects.js';
import { limitCodeChecks } from '../rate-limit/rate-limit.js';
import type { Db } from '../storage/db.js';
import type { JsonValue, VerificationCodeRow } from '../storage/schema.js';
import { type CodeLookup, checkCode, type IssuedCode, issueCode } from './codes.js';

/** `<callback>?code=<code>`, keeping the callback's own query (wire-protocol §12). */
export function linkWithCode(callback: string, code: string): string {
  const url = new URL(callback);
  url.searchParams.set('code', code);
  return url.toString();
}

/** A code to mail: its purpose is the template type of the mail carrying it. */
export interface CodeMail<T extends EmailTemplateType> {
  project: ProjectRecord;
  type: T;
  to: string;
  /** What the code acts on (user id, channel id, address...), stored with it. */
  data: Record<string, JsonValue>;
  /** The page the mailed link opens; the code is added as `?code=`. */
  callbackUrl: string;
  now: number;
  /** The template's variables, given the link and the issued code. */
  variables(link: string, code: IssuedCode): EmailTemplateVariables[T];
}

/**
 * Issues a code and queues the mail carrying its link, in the caller's
 * transaction: the code and its mail are kept together or not at all.
 *
 * @example
 * await inTransaction(deps.db, (trx) =>
 *   mailCode(trx, {
 *     project, type: 'password_reset', to: email, data: { user_id: user.id, email }, callbackUrl, now,
 *     variables: (link) => ({ userDisplayName: user.display_name, passwordResetLink: link }),
 *   }),
 * );
 */
export async function mailCode<T extends EmailTemplateType>(db: Db, mail: CodeMail<T>): Promise<IssuedCode> {
  const issued = await issueCode(db, {
    projectId: mail.project.id,
    purpose: mail.type,
    data: mail.data,
    now: mail.now,
  });
  await queueTemplatedMail(db, {
    project: mail.project,
    type: mail.type,
    to: mail.to,
    variables: mail.variables(linkWithCode(mail.callbackUrl, issued.code), issued),
    now: mail.now,
  });
  return issued;
}

/**
 * `checkCode` for a code a client sent: counts the guess against the
 * client's limit first (429 over it). Call it with the database, not in a
 * transaction.
 *
 * @example
 * const row = await checkClientCode(deps.db, { projectId, purpose: 'password_reset', code, now, clientIp: client.ip });
 */
export async function checkClientCode(
  db: Db,
  lookup: CodeLookup & { clientIp: string | null },
): Promise<VerificationCodeRow> {
  await limitCodeChecks(db, lookup.projectId, lookup.clientIp, lookup.now);
  return checkCode(db, lookup);
}
