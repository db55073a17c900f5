/**
 * What every code flow shares (reset, magic link, verification, invitation):
 * mailing a new code as a link, checking a code a client sent back under the
 * per-client limit on guesses, and the `/check-code` route.
 */
import type { KnownErrorCode } from '@latchkey/protocol';
import { z } from 'zod';
import type { EmailTemplateType, EmailTemplateVariables } from '../email-templates/template-types.js';
import { type ActionContext, act, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { queueTemplatedMail } from '../mail/queue-mail.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { CounterStore } from '../rate-limit/counter-store.js';
import type { LimitedProject } from '../rate-limit/limit-settings.js';
import { limitCodeChecks } from '../rate-limit/rate-limit.js';
import type { Db } from '../storage/db.js';
import type { JsonValue, VerificationCodeRow } from '../storage/schema.js';
import { countFailedAttempt } from './code-store.js';
import {
  type CodeLookup,
  type CodePurpose,
  checkCode,
  codeErrors,
  codeValidAnswer,
  type IssuedCode,
  issueCode,
  verificationCode,
} from './codes.js';

/** `<callback>?code=<code>`, keeping the callback's own query (wire-protocol §12). */
function linkWithCode(callback: string, code: string): string {
  const url = new URL(callback);
  url.searchParams.set('code', code);
  return url.toString();
}

/** The template types of mails that carry a code: each is the purpose of its codes. */
type CodeMailType = EmailTemplateType & CodePurpose;

/** A code to mail: its purpose is the template type of the mail carrying it. */
export interface CodeMail<T extends CodeMailType> {
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
  /** The team of a team invitation. */
  teamId?: string;
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
export async function mailCode<T extends CodeMailType>(db: Db, mail: CodeMail<T>): Promise<IssuedCode> {
  const issued = await issueCode(db, {
    projectId: mail.project.id,
    purpose: mail.type,
    data: mail.data,
    now: mail.now,
    ...(mail.teamId === undefined ? {} : { teamId: mail.teamId }),
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
 * `checkCode` for a code a client sent to `project`: counts the guess against
 * the client's limit first (429 over it). Call it outside a transaction. With
 * `ctx`, a wrong guess is counted as an action of its own (committed before
 * the refusal; there is nothing to record).
 *
 * @example
 * const row = await checkClientCode(deps, project, { purpose: 'password_reset', code, now, clientIp: client.ip }, ctx);
 */
export async function checkClientCode(
  deps: { db: Db; counters: CounterStore },
  project: LimitedProject,
  lookup: Omit<CodeLookup, 'projectId'> & { clientIp: string | null },
  ctx?: ActionContext,
): Promise<VerificationCodeRow> {
  await limitCodeChecks(deps.counters, project, lookup.clientIp, lookup.now);
  const counted = ctx && {
    countWrongGuess: (row: VerificationCodeRow) => act(ctx, (tx) => countFailedAttempt(tx.db, row.id)),
  };
  return checkCode(deps.db, { ...lookup, ...counted, projectId: project.id });
}

/** What a `/check-code` route checks: the purpose of its codes, and that what a code acts on still stands. */
export interface CheckCodeRouteOptions {
  path: string;
  tag: string;
  /** For the OpenAPI document, e.g. 'Says whether a password-reset code may be used, without using it.' */
  summary: string;
  purpose: CodePurpose;
  /** Throws VERIFICATION_CODE_NOT_FOUND when the code's subject is gone (a changed address, a deleted user). */
  subject(db: Db, projectId: string, row: VerificationCodeRow): Promise<unknown>;
  /** Known errors `subject` throws besides the codes' own (a deleted team: TEAM_NOT_FOUND). */
  errors?: readonly KnownErrorCode[];
}

/**
 * The `/check-code` sibling every code kind has (wire-protocol §12): says
 * whether a code may be used, without using it, under the client's limit on
 * guesses. One declaration for all of them.
 *
 * @example
 * const checkResetCode = checkCodeRoute({
 *   path: '/auth/password/reset/check-code', tag: 'password', purpose: 'password_reset', subject: resetSubject,
 *   summary: 'Says whether a password-reset code may be used, without using it.',
 * });
 */
export function checkCodeRoute(options: CheckCodeRouteOptions): Route {
  return defineRoute({
    method: 'POST',
    path: options.path,
    tag: options.tag,
    summary: options.summary,
    access: 'client',
    body: z.strictObject({ code: verificationCode }),
    answer: codeValidAnswer,
    errors: [...codeErrors, ...(options.errors ?? [])],
    handler: async (input) => {
      const { auth, body, client, deps } = input;
      const { project } = auth;
      const lookup = { purpose: options.purpose, code: body.code, now: deps.clock.now(), clientIp: client.ip };
      const row = await checkClientCode(deps, project, lookup, requestContext(input));
      await options.subject(deps.db, project.id, row);
      return { is_code_valid: true as const };
    },
  });
}
