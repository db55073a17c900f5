/** Checks the credential forms make before calling the service (same limits as the service). */
import { constants, messageFor } from '@latchkey/protocol';
import { formMessage } from '../internal/error-text.js';
import type { LatchkeyMessages } from '../messages.js';

export type CredentialKind = 'sign-in' | 'sign-up';

export interface FieldErrors {
  email?: string;
  password?: string;
}

const emailShape = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/;

/**
 * Field errors for `email` and `password`. Sign-up also checks the password
 * length; sign-in does not, so accounts with older, shorter passwords can
 * still sign in (the service answers "Wrong e-mail or password." otherwise).
 */
export function validateCredentials(
  kind: CredentialKind,
  values: { email: string; password: string },
  messages?: LatchkeyMessages,
): FieldErrors {
  const errors: FieldErrors = {};
  errors.email = emailError(values.email, messages);

  const { password } = values;
  if (!password) errors.password = formMessage('PASSWORD_REQUIRED', messages);
  else if (kind === 'sign-up') errors.password = newPasswordError(password, messages);
  return errors;
}

/** What is wrong with an e-mail address as typed (trimmed first), or `undefined`. */
export function emailError(email: string, messages?: LatchkeyMessages): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return formMessage('EMAIL_REQUIRED', messages);
  if (!emailShape.test(trimmed)) return formMessage('EMAIL_INVALID', messages);
  return undefined;
}

/** What is wrong with a new password (sign-up, reset), or `undefined`: required, then the service's length limits. */
export function newPasswordError(password: string, messages?: LatchkeyMessages): string | undefined {
  if (!password) return formMessage('PASSWORD_REQUIRED', messages);
  if (password.length < constants.passwordMinLength) {
    return messageFor('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength }, messages);
  }
  if (password.length > constants.passwordMaxLength) {
    return messageFor('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength }, messages);
  }
  return undefined;
}
