/** Wording of the errors the SDK raises itself (spec §8, client messages). */
import { unknownCodeMessage } from './known-error.js';

/**
 * Messages the SDK raises itself, without a server answer (spec §8, client
 * messages). Kept apart from the known-error wording, which the SDK never loads.
 *
 * @example
 * ```ts
 * throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, clientMessages.notSignedIn);
 * ```
 */
export const clientMessages = {
  oauthCallbackFailed: 'Error signing in during OAuth callback. Please try again.',
  notSignedIn: "User is not signed in but getUser was called with { or: 'throw' }",
  redirectNotTrusted: (url: string) => `Refusing to redirect to ${url}: it is not on this app's origin.`,
  noPersistentTokenStore: 'This action needs a persistent token store (cookie or custom).',
  duplicateAppId: 'A Stack client app with the same unique identifier already exists',
  apiKeyExpired: 'expired',
  apiKeyManuallyRevoked: 'manually-revoked',
  noAccessToken: 'No access token available',
  noPrimaryEmail: 'User does not have a primary email',
  unknownKnownErrorCode: unknownCodeMessage,
  offline: 'You appear to be offline. Check your connection and try again.',
  connectivity: (url: string) => `Could not reach the Latchkey service at ${url}.`,
  accessTokenTooShort: 'The service issued access tokens that expire in less than 20 seconds.',
} as const;
