/**
 * Signing secrets of webhook endpoints, in the Standard Webhooks form
 * (`whsec_` + base64 of 24 random bytes): made by the service, shown once,
 * sealed at rest under the master secret and bound to their endpoint. After a
 * rotation the previous secret signs too until its overlap ends.
 */
import { randomBytes } from 'node:crypto';
import type { Sealer } from '../crypto/encryption.js';
import type { WebhookEndpointRow } from '../storage/schema.js';

/** The purpose of the sealer of endpoint secrets (`createSealer(secrets, webhookSecretPurpose)`). */
export const webhookSecretPurpose = 'webhook-secrets';

/** How long the secret before a rotation keeps signing beside the new one. */
export const rotationOverlapMs = 24 * 60 * 60_000;

/** A new secret, `whsec_…`. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The data a secret is sealed with: a sealed secret moved to another endpoint does not open. */
function boundTo(endpointId: string): string {
  return `webhook-endpoint:${endpointId.toLowerCase()}`;
}

/** `secret` sealed for the endpoint `endpointId`. */
export function sealWebhookSecret(sealer: Sealer, endpointId: string, secret: string): string {
  return sealer.seal(secret, boundTo(endpointId));
}

/** A secret of the endpoint `endpointId` sealed by `from`, sealed again by `to` (`rotateSecret`). */
export function resealWebhookSecret(from: Sealer, to: Sealer, endpointId: string, sealed: string): string {
  return to.seal(from.open(sealed, boundTo(endpointId)), boundTo(endpointId));
}

/** The secrets that sign a message to `endpoint` at `now`: the current one, then the previous while it overlaps. */
export function signingSecrets(
  sealer: Sealer,
  endpoint: Pick<WebhookEndpointRow, 'id' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_at'>,
  now: number,
): string[] {
  const secrets = [sealer.open(endpoint.secret_sealed, boundTo(endpoint.id))];
  const previous = endpoint.previous_secret_sealed;
  if (previous && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at.getTime() > now) {
    secrets.push(sealer.open(previous, boundTo(endpoint.id)));
  }
  return secrets;
}
