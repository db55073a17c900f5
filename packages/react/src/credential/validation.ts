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
  const email = values.email.trim();
  if (!email) errors.email = formMessage('EMAIL_REQUIRED', messages);
  else if (!emailShape.test(email)) errors.email = formMessage('EMAIL_INVALID', messages);

  const { password } = values;
  if (!password) errors.password = formMessage('PASSWORD_REQUIRED', messages);
  else if (kind === 'sign-up' && password.length < constants.passwordMinLength) {
    errors.password = messageFor('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength }, messages);
  } else if (kind === 'sign-up' && password.length > constants.passwordMaxLength) {
    errors.password = messageFor('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength }, messages);
  }
  return errors;
}
