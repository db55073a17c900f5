/**
 * The service side of a known error: the status, the `x-stack-known-error`
 * header and the worded body (wire-protocol.md §4.1). It is the one place
 * that needs the wording table, so the SDK, which only decodes, never loads it.
 */
import type { KnownError, KnownErrorBody } from './known-error.js';
import { messageFor } from './messages.js';

/**
 * Response pieces for a known error. An error built without a message (its
 * message is its code) is worded from `errorMessages`; any other message is sent as it is.
 *
 * @example
 * ```ts
 * const { status, code, body } = encodeKnownError(new KnownError('USER_EMAIL_ALREADY_EXISTS'));
 * // 409, 'USER_EMAIL_ALREADY_EXISTS', { code: 'USER_EMAIL_ALREADY_EXISTS', error: 'User email already exists.' }
 * ```
 */
export function encodeKnownError(error: KnownError): { status: number; code: string; body: KnownErrorBody } {
  const body = error.toJSON();
  if (error.message === error.code) body.error = messageFor(error.code, error.details);
  return { status: error.status, code: error.code, body };
}
