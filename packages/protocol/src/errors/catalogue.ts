/**
 * The known-error catalogue: one row per error code the protocol can carry.
 *
 * Each row gives the HTTP status, the family the error belongs to (used for
 * `is()` checks, e.g. every `INVALID_ACCESS_TOKEN` error makes the SDK refresh
 * and retry) and the shape of its `details` object. Human wording lives apart,
 * in `messages.ts`, so that pages can reword or translate it.
 *
 * Everything else about errors (the class, the wire encoder and decoder, the
 * narrowing union) is derived from these two tables. Decoding reads this one
 * through `code-index.ts`, its compact run-time form (checked against it by
 * test), so browser bundles carry neither the detail shapes nor the wording.
 */

/**
 * How a `details` field is typed on the wire. `?` suffix: may be absent or null.
 *
 * @example
 * ```ts
 * const minLength: DetailFieldType = errorCatalogue.PASSWORD_TOO_SHORT.details.min_length; // 'number'
 * ```
 */
export type DetailFieldType = 'string' | 'number' | 'string[]' | 'json' | 'null' | 'string?' | 'number?';

/**
 * Abstract families (each with its parent): never sent, used for `is()` checks.
 *
 * @example
 * ```ts
 * errorFamilies.INVALID_ACCESS_TOKEN; // 'INVALID_SESSION_AUTHENTICATION'
 * ```
 */
export const errorFamilies = {
  PROJECT_AUTHENTICATION_ERROR: null,
  INVALID_PROJECT_AUTHENTICATION: 'PROJECT_AUTHENTICATION_ERROR',
  INVALID_ADMIN_ACCESS_TOKEN: 'INVALID_PROJECT_AUTHENTICATION',
  PROJECT_AUTHENTICATION_REQUIRED: 'PROJECT_AUTHENTICATION_ERROR',
  SESSION_AUTHENTICATION_ERROR: null,
  INVALID_SESSION_AUTHENTICATION: 'SESSION_AUTHENTICATION_ERROR',
  INVALID_ACCESS_TOKEN: 'INVALID_SESSION_AUTHENTICATION',
  REFRESH_TOKEN_ERROR: null,
  PASSWORD_REQUIREMENTS_NOT_MET: null,
  VERIFICATION_ERROR: null,
} as const satisfies Record<string, string | null>;

/**
 * The name of an abstract family.
 *
 * @example
 * ```ts
 * const family: KnownErrorFamily = 'REFRESH_TOKEN_ERROR';
 * ```
 */
export type KnownErrorFamily = keyof typeof errorFamilies;

interface Row {
  readonly status: number;
  readonly family?: KnownErrorFamily;
  readonly details?: Readonly<Record<string, DetailFieldType>>;
  /** False for codes the Stack Auth 2.7 SDK cannot parse; the service never sends those to it. */
  readonly compatible?: false;
}

/**
 * The catalogue. Keep it sorted by area, one line per code.
 *
 * @example
 * ```ts
 * errorCatalogue.USER_EMAIL_ALREADY_EXISTS.status; // 409
 * ```
 */
export const errorCatalogue = {
  // Request
  UNSUPPORTED_ERROR: { status: 500, details: { originalErrorCode: 'string' } },
  BODY_PARSING_ERROR: { status: 400, details: { message: 'string' } },
  SCHEMA_ERROR: { status: 400, details: { message: 'string' } },
  ALL_OVERLOADS_FAILED: { status: 400, details: { overload_errors: 'json' } },

  // Project authentication
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: { status: 400, family: 'INVALID_PROJECT_AUTHENTICATION' },
  INVALID_ACCESS_TYPE: { status: 400, family: 'INVALID_PROJECT_AUTHENTICATION', details: { accessType: 'string' } },
  ACCESS_TYPE_WITHOUT_PROJECT_ID: {
    status: 400,
    family: 'INVALID_PROJECT_AUTHENTICATION',
    details: { request_type: 'string' },
  },
  ACCESS_TYPE_REQUIRED: { status: 400, family: 'INVALID_PROJECT_AUTHENTICATION' },
  INSUFFICIENT_ACCESS_TYPE: {
    status: 401,
    family: 'INVALID_PROJECT_AUTHENTICATION',
    details: { actual_access_type: 'string', allowed_access_types: 'string[]' },
  },
  INVALID_PUBLISHABLE_CLIENT_KEY: {
    status: 401,
    family: 'INVALID_PROJECT_AUTHENTICATION',
    details: { project_id: 'string' },
  },
  INVALID_SECRET_SERVER_KEY: {
    status: 401,
    family: 'INVALID_PROJECT_AUTHENTICATION',
    details: { project_id: 'string' },
  },
  INVALID_SUPER_SECRET_ADMIN_KEY: {
    status: 401,
    family: 'INVALID_PROJECT_AUTHENTICATION',
    details: { project_id: 'string' },
  },
  UNPARSABLE_ADMIN_ACCESS_TOKEN: { status: 401, family: 'INVALID_ADMIN_ACCESS_TOKEN' },
  ADMIN_ACCESS_TOKEN_EXPIRED: {
    status: 401,
    family: 'INVALID_ADMIN_ACCESS_TOKEN',
    details: { expired_at_millis: 'null' },
  },
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: { status: 401, family: 'INVALID_ADMIN_ACCESS_TOKEN' },
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: { status: 401, family: 'INVALID_ADMIN_ACCESS_TOKEN' },
  CLIENT_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  SERVER_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  ADMIN_AUTHENTICATION_REQUIRED: { status: 401, family: 'PROJECT_AUTHENTICATION_REQUIRED' },
  EXPECTED_INTERNAL_PROJECT: { status: 401, family: 'PROJECT_AUTHENTICATION_ERROR' },

  // Session
  CANNOT_GET_OWN_USER_WITHOUT_USER: { status: 400 },
  UNPARSABLE_ACCESS_TOKEN: { status: 401, family: 'INVALID_ACCESS_TOKEN' },
  ACCESS_TOKEN_EXPIRED: { status: 401, family: 'INVALID_ACCESS_TOKEN', details: { expired_at_millis: 'null' } },
  INVALID_PROJECT_FOR_ACCESS_TOKEN: { status: 401, family: 'INVALID_ACCESS_TOKEN' },
  PROVIDER_REJECTED: { status: 401, family: 'REFRESH_TOKEN_ERROR' },
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: { status: 401, family: 'REFRESH_TOKEN_ERROR' },
  USER_AUTHENTICATION_REQUIRED: { status: 401 },
  /** Latchkey's refresh-token cookie mode, which the 2.7 SDK never uses: a request from an untrusted origin. */
  ORIGIN_NOT_TRUSTED: { status: 403, compatible: false },

  // Users and accounts
  USER_EMAIL_ALREADY_EXISTS: { status: 409 },
  USER_ID_DOES_NOT_EXIST: { status: 400, details: { user_id: 'string' } },
  USER_NOT_FOUND: { status: 404 },
  API_KEY_NOT_FOUND: { status: 404 },
  PROJECT_NOT_FOUND: { status: 404, details: { project_id: 'string' } },
  /** Latchkey's dashboard, which the 2.7 SDK never drives: the owner already owns as many projects as the operator allows. */
  PROJECT_LIMIT_REACHED: { status: 403, details: { limit: 'number' }, compatible: false },
  SIGN_UP_NOT_ENABLED: { status: 400 },
  PASSWORD_AUTHENTICATION_NOT_ENABLED: { status: 400 },
  PASSKEY_AUTHENTICATION_NOT_ENABLED: { status: 400 },
  EMAIL_PASSWORD_MISMATCH: { status: 400 },
  REDIRECT_URL_NOT_WHITELISTED: { status: 400 },
  PASSWORD_TOO_SHORT: { status: 400, family: 'PASSWORD_REQUIREMENTS_NOT_MET', details: { min_length: 'number' } },
  PASSWORD_TOO_LONG: { status: 400, family: 'PASSWORD_REQUIREMENTS_NOT_MET', details: { maxLength: 'number' } },
  USER_DOES_NOT_HAVE_PASSWORD: { status: 400 },
  PASSWORD_CONFIRMATION_MISMATCH: { status: 400 },
  EMAIL_ALREADY_VERIFIED: { status: 409 },
  EMAIL_NOT_ASSOCIATED_WITH_USER: { status: 400 },
  EMAIL_IS_NOT_PRIMARY_EMAIL: { status: 400, details: { email: 'string', primary_email: 'string?' } },
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: { status: 409, details: { type: 'string' } },

  // Verification codes
  VERIFICATION_CODE_NOT_FOUND: { status: 404, family: 'VERIFICATION_ERROR' },
  VERIFICATION_CODE_EXPIRED: { status: 400, family: 'VERIFICATION_ERROR' },
  VERIFICATION_CODE_ALREADY_USED: { status: 409, family: 'VERIFICATION_ERROR' },
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: { status: 400, family: 'VERIFICATION_ERROR' },

  // Passkeys
  PASSKEY_REGISTRATION_FAILED: { status: 400, details: { message: 'string' } },
  PASSKEY_WEBAUTHN_ERROR: { status: 400, details: { message: 'string', code: 'string' } },
  PASSKEY_AUTHENTICATION_FAILED: { status: 400, details: { message: 'string' } },
  /** Latchkey's routes that list, rename and remove a user's passkeys are an extension the 2.7 SDK never calls. */
  PASSKEY_NOT_FOUND: { status: 404, details: { passkey_id: 'string' }, compatible: false },

  // Teams and permissions
  PERMISSION_NOT_FOUND: { status: 404, details: { permission_id: 'string' } },
  CONTAINED_PERMISSION_NOT_FOUND: { status: 400, details: { permission_id: 'string' } },
  TEAM_NOT_FOUND: { status: 404, details: { team_id: 'string' } },
  TEAM_ALREADY_EXISTS: { status: 409, compatible: false },
  /** Latchkey's session routes (list and revoke one session) are an extension the 2.7 SDK never calls. */
  SESSION_NOT_FOUND: { status: 404, details: { session_id: 'string' }, compatible: false },
  TEAM_MEMBERSHIP_NOT_FOUND: { status: 404, details: { team_id: 'string', user_id: 'string' } },
  TEAM_MEMBERSHIP_ALREADY_EXISTS: { status: 409 },
  TEAM_PERMISSION_REQUIRED: {
    status: 401,
    details: { team_id: 'string', user_id: 'string', permission_id: 'string' },
  },
  TEAM_PERMISSION_NOT_FOUND: {
    status: 401,
    details: { team_id: 'string', user_id: 'string', permission_id: 'string' },
  },
  EMAIL_TEMPLATE_ALREADY_EXISTS: { status: 409 },

  // OAuth
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: { status: 400 },
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: { status: 409 },
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: { status: 400 },
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: { status: 400 },
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: { status: 400 },
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: { status: 400, details: { client_id: 'string?' } },
  INVALID_SCOPE: { status: 400, details: { scope: 'string' } },
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: { status: 409 },
  OUTER_OAUTH_TIMEOUT: { status: 408 },
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: { status: 400 },
  INVALID_SHARED_OAUTH_PROVIDER_ID: { status: 400, details: { provider_id: 'string' } },
  INVALID_STANDARD_OAUTH_PROVIDER_ID: { status: 400, details: { provider_id: 'string' } },
  INVALID_AUTHORIZATION_CODE: { status: 400 },
  OAUTH_PROVIDER_ACCESS_DENIED: { status: 400 },

  // Multi-factor
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: { status: 400, details: { attempt_code: 'string' } },
  INVALID_TOTP_CODE: { status: 400 },
  /**
   * Latchkey's MFA policy (`mfa_required`), which a 2.7 SDK's project never turns on: the user proved a first
   * factor but has no TOTP yet; the attempt code enrols one (`POST /auth/mfa/setup`).
   */
  MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED: { status: 400, details: { attempt_code: 'string' }, compatible: false },

  // Webhooks: Latchkey's webhook routes (endpoints, messages, attempts) are an extension the 2.7 SDK never calls
  // (it asks only for the webhook token).
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, details: { endpoint_id: 'string' }, compatible: false },
  WEBHOOK_MESSAGE_NOT_FOUND: { status: 404, details: { message_id: 'string' }, compatible: false },
  /** The project has as many webhook endpoints as the service allows. */
  WEBHOOK_ENDPOINT_LIMIT_REACHED: { status: 403, details: { limit: 'number' }, compatible: false },
} as const satisfies Record<string, Row>;

/**
 * A code of the catalogue.
 *
 * @example
 * ```ts
 * const code: KnownErrorCode = 'EMAIL_PASSWORD_MISMATCH';
 * ```
 */
export type KnownErrorCode = keyof typeof errorCatalogue;

/**
 * Every code, in catalogue order.
 *
 * @example
 * ```ts
 * for (const code of knownErrorCodes) console.log(code, errorCatalogue[code].status);
 * ```
 */
export const knownErrorCodes = /* @__PURE__ */ Object.keys(errorCatalogue) as KnownErrorCode[];

type Catalogue = typeof errorCatalogue;

type FieldType<T extends DetailFieldType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'string[]'
      ? string[]
      : T extends 'null'
        ? null
        : T extends 'string?'
          ? string | null
          : T extends 'number?'
            ? number | null
            : unknown;

/**
 * The `details` object a code carries (`undefined` for codes without details).
 *
 * @example
 * ```ts
 * const details: KnownErrorDetails<'PASSWORD_TOO_SHORT'> = { min_length: 8 };
 * ```
 */
export type KnownErrorDetails<C extends KnownErrorCode> = Catalogue[C] extends {
  details: infer D extends Record<string, DetailFieldType>;
}
  ? { [K in keyof D]: FieldType<D[K]> }
  : undefined;

type ParentOf<F extends KnownErrorFamily> = (typeof errorFamilies)[F];

type FamilyChain<F> = F extends KnownErrorFamily
  ? F | (ParentOf<F> extends KnownErrorFamily ? FamilyChain<ParentOf<F>> : never)
  : never;

/**
 * The families a code belongs to (type level).
 *
 * @example
 * ```ts
 * type F = FamiliesOf<'ACCESS_TOKEN_EXPIRED'>; // 'INVALID_ACCESS_TOKEN' | 'INVALID_SESSION_AUTHENTICATION' | ...
 * ```
 */
export type FamiliesOf<C extends KnownErrorCode> = Catalogue[C] extends { family: infer F } ? FamilyChain<F> : never;

/**
 * The codes that belong to a family (or the code itself).
 *
 * @example
 * ```ts
 * type C = CodesIn<'PASSWORD_REQUIREMENTS_NOT_MET'>; // 'PASSWORD_TOO_SHORT' | 'PASSWORD_TOO_LONG'
 * ```
 */
export type CodesIn<F extends KnownErrorCode | KnownErrorFamily> = {
  [C in KnownErrorCode]: C extends F ? C : F extends FamiliesOf<C> ? C : never;
}[KnownErrorCode];

/** Runtime view of a row (the service's checks; decoding reads `code-index.ts`). */
export function catalogueRow(code: KnownErrorCode): Row {
  return errorCatalogue[code];
}
