/** Picking the words for an error or a form message, with a page's `messages` table applied. */
import { isKnownErrorCode, type KnownErrorCode, messageFor } from '@latchkey/protocol';
import { type FormMessageCode, formMessages, type LatchkeyMessages } from '../messages.js';

/** The wording of a form message code. */
export function formMessage(code: FormMessageCode, messages: LatchkeyMessages | undefined): string {
  return messages?.[code] ?? formMessages[code];
}

/** The code of a known error, also for errors thrown by another copy of the protocol package. */
export function knownErrorCodeOf(error: unknown): KnownErrorCode | null {
  const code = (error as { code?: unknown } | null)?.code;
  return isKnownErrorCode(code) ? code : null;
}

/** What to show the user for an error thrown by the SDK. */
export function errorText(error: unknown, messages: LatchkeyMessages | undefined): string {
  const code = knownErrorCodeOf(error);
  if (code) return messageFor(code, (error as { details?: never }).details as never, messages);
  if (error instanceof Error && error.message) return error.message;
  return formMessage('UNEXPECTED_ERROR', messages);
}
