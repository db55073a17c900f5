/**
 * Wording of form messages: the known-error table of `@latchkey/protocol`
 * plus the few messages the forms raise themselves. Pages take a partial
 * table (`messages` prop) to reword or translate any entry.
 */
import type { messageFor } from '@latchkey/protocol';

/**
 * English wording of the checks the forms make before calling the service.
 * Reword them like known errors, through a page's `messages` prop.
 *
 * @example
 * ```tsx
 * <SignIn messages={{ EMAIL_REQUIRED: 'Votre adresse e-mail, s’il vous plaît.' }} />
 * console.log(formMessages.EMAIL_INVALID);
 * ```
 */
export const formMessages = {
  EMAIL_REQUIRED: 'Enter your e-mail address.',
  EMAIL_INVALID: 'Enter a valid e-mail address, like name@example.com.',
  PASSWORD_REQUIRED: 'Enter your password.',
  PASSWORDS_DIFFERENT: 'The two passwords are not the same.',
  CODE_REQUIRED: 'Enter the six characters of the code from the e-mail.',
  CODE_INCORRECT: 'That code is not right. Check the e-mail and try again.',
  UNEXPECTED_ERROR: 'Something went wrong. Please try again.',
} as const;

/**
 * The codes of `formMessages`.
 *
 * @example
 * ```ts
 * const code: FormMessageCode = 'EMAIL_INVALID';
 * ```
 */
export type FormMessageCode = keyof typeof formMessages;

type KnownErrorWording = NonNullable<Parameters<typeof messageFor>[2]>;

/**
 * A partial wording table for the pages: known-error codes of
 * `@latchkey/protocol` (string or function of the error's details) and the
 * form message codes of `formMessages`.
 *
 * @example
 * ```ts
 * const french: LatchkeyMessages = {
 *   EMAIL_PASSWORD_MISMATCH: 'E-mail ou mot de passe incorrect.',
 *   PASSWORD_TOO_SHORT: (d) => `Au moins ${d.min_length} caractères.`,
 * };
 * ```
 */
export type LatchkeyMessages = KnownErrorWording & { [C in FormMessageCode]?: string };
