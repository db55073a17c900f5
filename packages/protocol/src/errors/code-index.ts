/**
 * The catalogue as decoding needs it at run time. A header line gives a
 * status, a family when there is one, and `{...}` when the codes carry
 * details (naming the fields that default to `null`); the codes below it, one
 * a line, share them. The detail shapes, the compatibility marks and the
 * wording stay in `errorCatalogue` and `errorMessages`, which only the
 * service and UI pages load: a browser bundle that decodes errors holds this
 * text, which gzip packs far smaller than the catalogue object.
 *
 * It is derived from `errorCatalogue` (headers in catalogue order, codes
 * sorted): `code-index.test.ts` checks it and prints the text to paste when
 * the two differ.
 */
import { errorFamilies, type KnownErrorCode, type KnownErrorFamily } from './catalogue.js';

/** What decoding needs of one code. */
interface CodeTraits {
  status: number;
  family?: KnownErrorFamily;
  /** Absent for codes without details; else the details fields that default to `null`. */
  nullDetails?: string[];
}

/** @internal Exported for the test that derives it from the catalogue. */
export const codeIndexText = `
500 {}:
UNSUPPORTED_ERROR
400 {}:
ALL_OVERLOADS_FAILED
BODY_PARSING_ERROR
CONTAINED_PERMISSION_NOT_FOUND
EMAIL_IS_NOT_PRIMARY_EMAIL
INVALID_OAUTH_CLIENT_ID_OR_SECRET
INVALID_SCOPE
INVALID_SHARED_OAUTH_PROVIDER_ID
INVALID_STANDARD_OAUTH_PROVIDER_ID
MULTI_FACTOR_AUTHENTICATION_REQUIRED
MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED
PASSKEY_AUTHENTICATION_FAILED
PASSKEY_REGISTRATION_FAILED
PASSKEY_WEBAUTHN_ERROR
SCHEMA_ERROR
USER_ID_DOES_NOT_EXIST
400 INVALID_PROJECT_AUTHENTICATION:
ACCESS_TYPE_REQUIRED
PROJECT_KEY_WITHOUT_ACCESS_TYPE
400 INVALID_PROJECT_AUTHENTICATION {}:
ACCESS_TYPE_WITHOUT_PROJECT_ID
INVALID_ACCESS_TYPE
401 INVALID_PROJECT_AUTHENTICATION {}:
INSUFFICIENT_ACCESS_TYPE
INVALID_PUBLISHABLE_CLIENT_KEY
INVALID_SECRET_SERVER_KEY
INVALID_SUPER_SECRET_ADMIN_KEY
401 INVALID_ADMIN_ACCESS_TOKEN:
ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN
INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN
UNPARSABLE_ADMIN_ACCESS_TOKEN
401 INVALID_ADMIN_ACCESS_TOKEN {expired_at_millis}:
ADMIN_ACCESS_TOKEN_EXPIRED
401 PROJECT_AUTHENTICATION_REQUIRED:
ADMIN_AUTHENTICATION_REQUIRED
CLIENT_AUTHENTICATION_REQUIRED
CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED
CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED
CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED
SERVER_AUTHENTICATION_REQUIRED
401 PROJECT_AUTHENTICATION_ERROR:
EXPECTED_INTERNAL_PROJECT
400:
CANNOT_GET_OWN_USER_WITHOUT_USER
EMAIL_NOT_ASSOCIATED_WITH_USER
EMAIL_PASSWORD_MISMATCH
INVALID_AUTHORIZATION_CODE
INVALID_TOTP_CODE
OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS
OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE
OAUTH_CONNECTION_NOT_CONNECTED_TO_USER
OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS
OAUTH_PROVIDER_ACCESS_DENIED
OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED
PASSKEY_AUTHENTICATION_NOT_ENABLED
PASSWORD_AUTHENTICATION_NOT_ENABLED
PASSWORD_CONFIRMATION_MISMATCH
REDIRECT_URL_NOT_WHITELISTED
SIGN_UP_NOT_ENABLED
USER_DOES_NOT_HAVE_PASSWORD
401 INVALID_ACCESS_TOKEN:
INVALID_PROJECT_FOR_ACCESS_TOKEN
UNPARSABLE_ACCESS_TOKEN
401 INVALID_ACCESS_TOKEN {expired_at_millis}:
ACCESS_TOKEN_EXPIRED
401 REFRESH_TOKEN_ERROR:
PROVIDER_REJECTED
REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED
401:
USER_AUTHENTICATION_REQUIRED
403:
ORIGIN_NOT_TRUSTED
409:
EMAIL_ALREADY_VERIFIED
EMAIL_TEMPLATE_ALREADY_EXISTS
OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER
TEAM_ALREADY_EXISTS
TEAM_MEMBERSHIP_ALREADY_EXISTS
USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION
USER_EMAIL_ALREADY_EXISTS
404:
API_KEY_NOT_FOUND
USER_NOT_FOUND
404 {}:
PASSKEY_NOT_FOUND
PERMISSION_NOT_FOUND
PROJECT_NOT_FOUND
SESSION_NOT_FOUND
TEAM_MEMBERSHIP_NOT_FOUND
TEAM_NOT_FOUND
WEBHOOK_ENDPOINT_NOT_FOUND
WEBHOOK_MESSAGE_NOT_FOUND
403 {}:
PROJECT_LIMIT_REACHED
WEBHOOK_ENDPOINT_LIMIT_REACHED
400 PASSWORD_REQUIREMENTS_NOT_MET {}:
PASSWORD_TOO_LONG
PASSWORD_TOO_SHORT
409 {}:
CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE
404 VERIFICATION_ERROR:
VERIFICATION_CODE_NOT_FOUND
400 VERIFICATION_ERROR:
VERIFICATION_CODE_EXPIRED
VERIFICATION_CODE_MAX_ATTEMPTS_REACHED
409 VERIFICATION_ERROR:
VERIFICATION_CODE_ALREADY_USED
401 {}:
TEAM_PERMISSION_NOT_FOUND
TEAM_PERMISSION_REQUIRED
408:
OUTER_OAUTH_TIMEOUT
`;

let index: Map<string, CodeTraits> | undefined;

/** The index, read from its text on first use: a status starts a row, a family or `{...}` adds to it, codes take it. */
function codeIndex(): Map<string, CodeTraits> {
  if (!index) {
    index = new Map();
    let row: CodeTraits = { status: 0 };
    for (const token of codeIndexText.split(/[\s:]+/)) {
      if (Object.hasOwn(errorFamilies, token)) row.family = token as KnownErrorFamily;
      else if (token.startsWith('{')) row.nullDetails = token.slice(1, -1).split(',').filter(Boolean);
      else if (Number(token)) row = { status: Number(token) };
      else if (token) index.set(token, row);
    }
  }
  return index;
}

/** What decoding needs of a code of the catalogue. */
export function codeTraits(code: KnownErrorCode): CodeTraits {
  return codeIndex().get(code) as CodeTraits;
}

/**
 * The families a code belongs to, nearest first.
 *
 * @example
 * ```ts
 * familiesOf('ACCESS_TOKEN_EXPIRED'); // ['INVALID_ACCESS_TOKEN', 'INVALID_SESSION_AUTHENTICATION', 'SESSION_AUTHENTICATION_ERROR']
 * ```
 */
export function familiesOf(code: KnownErrorCode): KnownErrorFamily[] {
  const chain: KnownErrorFamily[] = [];
  let family: KnownErrorFamily | null | undefined = codeTraits(code).family;
  while (family) {
    chain.push(family);
    family = errorFamilies[family];
  }
  return chain;
}

/**
 * True when `value` is a code of the catalogue (families are not codes).
 *
 * @example
 * ```ts
 * isKnownErrorCode('USER_NOT_FOUND'); // true
 * ```
 */
export function isKnownErrorCode(value: unknown): value is KnownErrorCode {
  return typeof value === 'string' && codeIndex().has(value);
}
