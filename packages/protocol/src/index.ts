/**
 * @latchkey/protocol: what the Latchkey service and SDK agree on. Header
 * names, the known-error catalogue, business constants and wire types.
 * No runtime dependencies and no side effects; safe in browsers and in Node.
 * Decoding a known error does not load the English wording (`errorMessages`).
 *
 * @example
 * ```ts
 * import { decodeKnownError, headers, isKnownError } from '@latchkey/protocol';
 * ```
 */

export * from './business-constants.js';
export * from './constants.js';
export {
  type CodesIn,
  type DetailFieldType,
  errorCatalogue,
  errorFamilies,
  type FamiliesOf,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorFamily,
  knownErrorCodes,
} from './errors/catalogue.js';
export { clientMessages } from './errors/client-messages.js';
export { familiesOf, isKnownErrorCode } from './errors/code-index.js';
export { encodeKnownError } from './errors/encode.js';
export {
  decodeKnownError,
  detailsProblem,
  isKnownError,
  KnownError,
  type KnownErrorBody,
  UnknownKnownErrorCode,
} from './errors/known-error.js';
export {
  errorMessages,
  messageFor,
  type WebAuthnErrorCode,
  webAuthnErrorMessages,
} from './errors/messages.js';
export { type AuditEventType, auditEventTypes, type WebhookEventType, webhookEventTypes } from './events.js';
export * from './headers.js';
export {
  domainSettingsPath,
  type ProductionModeConfig,
  type ProductionModeError,
  productionModeErrors,
} from './production-mode.js';
export type * from './wire.js';
