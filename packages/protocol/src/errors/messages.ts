/**
 * English wording for every known error, kept apart from the catalogue so that
 * an application can reword or translate it: pass your own table to
 * `messageFor` or to the React pages. Only code that words errors loads it
 * (the service's `encodeKnownError`, UI pages); decoding an error does not.
 */
import type { KnownErrorCode, KnownErrorDetails } from './catalogue.js';

type Wording = { [C in KnownErrorCode]: string | ((details: KnownErrorDetails<C>) => string) };

/**
 * The English wording of every code: a string, or a function of the error's details.
 *
 * @example
 * ```ts
 * errorMessages.EMAIL_PASSWORD_MISMATCH; // 'Wrong e-mail or password.'
 * ```
 */
export const errorMessages: Wording = {
  UNSUPPORTED_ERROR: (d) => `An unsupported error happened (${d.originalErrorCode}).`,
  BODY_PARSING_ERROR: (d) => `The request body could not be read: ${d.message}`,
  SCHEMA_ERROR: (d) => `The request is not valid: ${d.message}`,
  ALL_OVERLOADS_FAILED: 'The request matched none of the accepted forms of this endpoint.',
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: 'A project key was sent without the x-stack-access-type header.',
  INVALID_ACCESS_TYPE: (d) => `The access type "${d.accessType}" is not one of client, server or admin.`,
  ACCESS_TYPE_WITHOUT_PROJECT_ID: 'An access type was sent without the x-stack-project-id header.',
  ACCESS_TYPE_REQUIRED: 'This endpoint needs the x-stack-access-type header.',
  INSUFFICIENT_ACCESS_TYPE: (d) =>
    `The access type "${d.actual_access_type}" may not call this endpoint; allowed: ${d.allowed_access_types.join(', ')}.`,
  INVALID_PUBLISHABLE_CLIENT_KEY: (d) => `The publishable client key is not valid for project ${d.project_id}.`,
  INVALID_SECRET_SERVER_KEY: (d) => `The secret server key is not valid for project ${d.project_id}.`,
  INVALID_SUPER_SECRET_ADMIN_KEY: (d) => `The super secret admin key is not valid for project ${d.project_id}.`,
  UNPARSABLE_ADMIN_ACCESS_TOKEN: 'The admin access token could not be read.',
  ADMIN_ACCESS_TOKEN_EXPIRED: 'The admin access token has expired.',
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: 'The admin access token is not for this project.',
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: 'The admin access token does not grant access to this project.',
  CLIENT_AUTHENTICATION_REQUIRED: 'This endpoint needs a publishable client key.',
  SERVER_AUTHENTICATION_REQUIRED: 'This endpoint needs a secret server key.',
  CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED: 'This endpoint needs a publishable client key or a secret server key.',
  CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED: 'This endpoint needs a publishable client key or an admin key.',
  CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED: 'This endpoint needs a project key.',
  ADMIN_AUTHENTICATION_REQUIRED: 'This endpoint needs a super secret admin key.',
  EXPECTED_INTERNAL_PROJECT: 'This endpoint is only available on the internal project.',
  CANNOT_GET_OWN_USER_WITHOUT_USER: 'No user is signed in.',
  UNPARSABLE_ACCESS_TOKEN: 'The access token could not be read.',
  ACCESS_TOKEN_EXPIRED: 'The access token has expired.',
  INVALID_PROJECT_FOR_ACCESS_TOKEN: 'The access token is not for this project.',
  PROVIDER_REJECTED: 'The sign-in provider rejected the refresh token.',
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 'The session has ended. Please sign in again.',
  USER_AUTHENTICATION_REQUIRED: 'You need to be signed in.',
  ORIGIN_NOT_TRUSTED: 'This request comes from a site the project does not trust, so its session cookie is not used.',
  USER_EMAIL_ALREADY_EXISTS: 'User email already exists.',
  USER_ID_DOES_NOT_EXIST: (d) => `There is no user with id ${d.user_id}.`,
  USER_NOT_FOUND: 'User not found.',
  API_KEY_NOT_FOUND: 'API key not found.',
  PROJECT_NOT_FOUND: (d) => `Project ${d.project_id} not found.`,
  PROJECT_LIMIT_REACHED: (d) =>
    `You own as many projects as this server allows (${d.limit}). Delete one, or ask the operator to raise the limit.`,
  SIGN_UP_NOT_ENABLED: 'Sign-up is not enabled for this project.',
  PASSWORD_AUTHENTICATION_NOT_ENABLED: 'Signing in with a password is not enabled for this project.',
  PASSKEY_AUTHENTICATION_NOT_ENABLED: 'Signing in with a passkey is not enabled for this project.',
  EMAIL_PASSWORD_MISMATCH: 'Wrong e-mail or password.',
  REDIRECT_URL_NOT_WHITELISTED: 'The redirect URL is not on a trusted domain of this project.',
  PASSWORD_TOO_SHORT: (d) => `The password must be at least ${d.min_length} characters long.`,
  PASSWORD_TOO_LONG: (d) => `The password must be at most ${d.maxLength} characters long.`,
  USER_DOES_NOT_HAVE_PASSWORD: 'This account has no password.',
  PASSWORD_CONFIRMATION_MISMATCH: 'Passwords do not match.',
  EMAIL_ALREADY_VERIFIED: 'This e-mail address is already verified.',
  EMAIL_NOT_ASSOCIATED_WITH_USER: 'This e-mail address does not belong to the user.',
  EMAIL_IS_NOT_PRIMARY_EMAIL: (d) => `${d.email} is not the primary e-mail address of the user.`,
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: (d) =>
    `This ${d.type === 'email' ? 'e-mail address' : d.type} is already used to sign in by another account.`,
  VERIFICATION_CODE_NOT_FOUND: 'The verification code does not exist.',
  VERIFICATION_CODE_EXPIRED: 'The verification code has expired.',
  VERIFICATION_CODE_ALREADY_USED: 'The verification link has already been used.',
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: 'Too many attempts with this code. Please request a new one.',
  PASSKEY_REGISTRATION_FAILED: (d) => `The passkey could not be registered: ${d.message}`,
  PASSKEY_WEBAUTHN_ERROR: (d) => `The browser reported a passkey error: ${d.message}`,
  PASSKEY_AUTHENTICATION_FAILED: (d) => `Signing in with the passkey failed: ${d.message}`,
  PASSKEY_NOT_FOUND: 'Passkey not found.',
  PERMISSION_NOT_FOUND: (d) => `Permission "${d.permission_id}" not found.`,
  CONTAINED_PERMISSION_NOT_FOUND: (d) => `Contained permission "${d.permission_id}" not found.`,
  TEAM_NOT_FOUND: (d) => `Team ${d.team_id} not found.`,
  TEAM_ALREADY_EXISTS: 'The team already exists.',
  SESSION_NOT_FOUND: 'Session not found.',
  TEAM_MEMBERSHIP_NOT_FOUND: (d) => `User ${d.user_id} is not a member of team ${d.team_id}.`,
  TEAM_MEMBERSHIP_ALREADY_EXISTS: 'The user is already a member of this team.',
  TEAM_PERMISSION_REQUIRED: (d) => `You need the permission "${d.permission_id}" in this team.`,
  TEAM_PERMISSION_NOT_FOUND: (d) => `The user does not hold the permission "${d.permission_id}" in this team.`,
  EMAIL_TEMPLATE_ALREADY_EXISTS: 'An e-mail template of this type already exists.',
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: 'This provider account is not connected to the user.',
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: 'This provider account is already connected to another user.',
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: 'The connected account does not grant the requested scope.',
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: 'Extra scopes need your own OAuth keys for this provider.',
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS:
    'Provider access tokens need your own OAuth keys for this provider.',
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: 'The OAuth client id or secret is not valid.',
  INVALID_SCOPE: (d) => `The scope "${d.scope}" is not valid.`,
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION:
    'The user is already connected to another account of this provider.',
  OUTER_OAUTH_TIMEOUT: 'The OAuth flow has timed out. Please sign in again.',
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: 'This sign-in provider is not enabled for the project.',
  INVALID_SHARED_OAUTH_PROVIDER_ID: (d) => `"${d.provider_id}" has no shared development keys.`,
  INVALID_STANDARD_OAUTH_PROVIDER_ID: (d) => `"${d.provider_id}" is not a known OAuth provider.`,
  INVALID_AUTHORIZATION_CODE: 'The authorization code is not valid or has expired.',
  OAUTH_PROVIDER_ACCESS_DENIED: 'The sign-in provider denied access.',
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: 'Enter the code from your authenticator app to finish signing in.',
  INVALID_TOTP_CODE: 'Invalid TOTP code. Please try signing in again.',
  MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED:
    'This project requires an authenticator app: set one up to finish signing in.',
  WEBHOOK_ENDPOINT_NOT_FOUND: (d) => `Webhook endpoint ${d.endpoint_id} not found.`,
  WEBHOOK_MESSAGE_NOT_FOUND: (d) => `Webhook message ${d.message_id} not found.`,
  WEBHOOK_ENDPOINT_LIMIT_REACHED: (d) =>
    `This project has as many webhook endpoints as the service allows (${d.limit}). Delete one to add another.`,
};

/**
 * WebAuthn ceremony failures reported by the browser, carried as the `code` of
 * `PASSKEY_WEBAUTHN_ERROR` (spec §8, WebAuthn ceremony).
 *
 * @example
 * ```ts
 * const text = webAuthnErrorMessages[error.details.code as WebAuthnErrorCode] ?? error.message;
 * ```
 */
export const webAuthnErrorMessages = {
  ERROR_CEREMONY_ABORTED: 'The passkey prompt was closed before it finished.',
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: 'This authenticator cannot store discoverable passkeys.',
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: 'This authenticator cannot verify who you are.',
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: 'This passkey is already registered.',
  ERROR_INVALID_DOMAIN: 'Passkeys need localhost or a valid domain name.',
  ERROR_INVALID_RP_ID: 'The passkey relying-party id does not match this site.',
  ERROR_INVALID_USER_ID_LENGTH: 'The passkey user id must be 1 to 64 bytes long.',
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG:
    'This authenticator supports none of the requested key algorithms.',
  ERROR_MALFORMED_PUBKEYCREDPARAMS: 'The passkey key parameters are malformed.',
  ERROR_AUTHENTICATOR_GENERAL_ERROR: 'The authenticator reported an error.',
  ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY: 'The browser reported a passkey error.',
} as const;

/**
 * A WebAuthn ceremony failure code.
 *
 * @example
 * ```ts
 * const aborted: WebAuthnErrorCode = 'ERROR_CEREMONY_ABORTED';
 * ```
 */
export type WebAuthnErrorCode = keyof typeof webAuthnErrorMessages;

/**
 * The wording of a known error, from `table` (the English wording for codes
 * the table leaves out, or when its entry throws).
 *
 * @example
 * ```ts
 * messageFor('PASSWORD_TOO_SHORT', { min_length: 8 }); // 'The password must be at least 8 characters long.'
 * messageFor('EMAIL_PASSWORD_MISMATCH', undefined, { EMAIL_PASSWORD_MISMATCH: 'Mauvais mot de passe.' });
 * ```
 */
export function messageFor<C extends KnownErrorCode>(
  code: C,
  details: KnownErrorDetails<C>,
  table: Partial<Wording> = errorMessages,
): string {
  return word(table[code], details) ?? word(errorMessages[code], details) ?? code;
}

type Entry = string | ((details: never) => string);

/** An entry applied to `details`; `null` when there is none or it throws (details of the wrong shape). */
function word(entry: Entry | undefined, details: unknown): string | null {
  if (typeof entry !== 'function') return entry ?? null;
  try {
    return entry(details as never);
  } catch {
    return null;
  }
}
