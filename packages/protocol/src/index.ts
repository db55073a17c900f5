/**
 * @latchkey/protocol: what the Latchkey service and SDK agree on. Header
 * names, the known-error catalogue, business constants and wire types.
 * No runtime dependencies; safe in browsers and in Node.
 */

export * from './constants.js';
export {
  type CodesIn,
  type DetailFieldType,
  errorCatalogue,
  errorFamilies,
  type FamiliesOf,
  familiesOf,
  isKnownErrorCode,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorFamily,
  knownErrorCodes,
} from './errors/catalogue.js';
export {
  decodeKnownError,
  detailsProblem,
  encodeKnownError,
  isKnownError,
  KnownError,
  type KnownErrorBody,
  UnknownKnownErrorCode,
} from './errors/known-error.js';
export {
  clientMessages,
  errorMessages,
  messageFor,
  type WebAuthnErrorCode,
  webAuthnErrorMessages,
} from './errors/messages.js';
export * from './headers.js';
export type * from './wire.js';
