/**
 * API key sets (spec §3, §4; wire-protocol.md §6, §14.7, §15.7), admin access:
 * create one (its keys in full, this once), list them and read one (each key
 * as its last four characters), revoke one (`{"revoked": true}`).
 */
import {
  type ApiKeySetFirstViewWire,
  type ApiKeySetWire,
  isKnownError,
  type ObfuscatedKeyWire,
} from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import {
  asBaseFields,
  type Fields,
  optionalNumber,
  optionalObject,
  optionalString,
  readFields,
} from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';

/**
 * What a key set is, whichever way it is shown: its keys are `K`, full
 * strings once at creation and `{ lastFour }` afterwards; a kind the set
 * lacks is `null`.
 *
 * @example
 * ```ts
 * const sets = await adminApp.listApiKeySets();
 * console.log(sets.map((set) => `${set.description}: …${set.secretServerKey?.lastFour ?? '(none)'}`));
 * ```
 */
export interface ApiKeySetData<K> {
  id: string;
  description: string;
  createdAt: Date;
  expiresAt: Date;
  /** When it was revoked; `null` while it is not. */
  manuallyRevokedAt: Date | null;
  publishableClientKey: K | null;
  secretServerKey: K | null;
  superSecretAdminKey: K | null;
}

/**
 * A key as list and read answers show it.
 *
 * @example
 * ```ts
 * const shown: ObfuscatedKey = { lastFour: 'x7k2' };
 * ```
 */
export interface ObfuscatedKey {
  lastFour: string;
}

/**
 * A new key set: which kinds of key it holds, until when.
 *
 * @example
 * ```ts
 * const set = await adminApp.createApiKeySet({ description: 'Web app', hasPublishableClientKey: true, hasSecretServerKey: true });
 * ```
 */
export interface CreateApiKeySetOptions {
  description?: string;
  /** When the keys stop working; the service's default is 100 years on. */
  expiresAt?: Date;
  hasPublishableClientKey?: boolean;
  hasSecretServerKey?: boolean;
  hasSuperSecretAdminKey?: boolean;
}

/** `POST /internal/api-keys`: the new set, its keys in full. */
export function createApiKeySet(send: Send, options: CreateApiKeySetOptions): Promise<ApiKeySetData<string>> {
  const body = definedFields({
    description: options.description,
    expires_at_millis: options.expiresAt?.getTime(),
    has_publishable_client_key: options.hasPublishableClientKey,
    has_secret_server_key: options.hasSecretServerKey,
    has_super_secret_admin_key: options.hasSuperSecretAdminKey,
  });
  return send({ method: 'POST', path: '/internal/api-keys', body }, decodeApiKeySetFirstView);
}

/** `GET /internal/api-keys`. */
export function listApiKeySets(send: Send): Promise<ApiKeySetData<ObfuscatedKey>[]> {
  return send({ method: 'GET', path: '/internal/api-keys' }, decodeApiKeySetList);
}

/** `GET /internal/api-keys/{id}`; `null` when the project has no such set (`API_KEY_NOT_FOUND`). */
export async function fetchApiKeySet(send: Send, id: string): Promise<ApiKeySetData<ObfuscatedKey> | null> {
  try {
    return await send({ method: 'GET', path: keySetPath(id) }, decodeApiKeySet);
  } catch (error) {
    if (isKnownError(error, 'API_KEY_NOT_FOUND')) return null;
    throw error;
  }
}

/** `PATCH /internal/api-keys/{id}` with `{"revoked": true}`: the set as it is afterwards. */
export function revokeApiKeySet(send: Send, id: string): Promise<ApiKeySetData<ObfuscatedKey>> {
  return send({ method: 'PATCH', path: keySetPath(id), body: { revoked: true } }, decodeApiKeySet);
}

/** Decodes a key set of a read or update answer. */
export function decodeApiKeySet(body: unknown): ApiKeySetData<ObfuscatedKey> {
  return readFields(body, readApiKeySet);
}

/** Decodes the answer of `GET /internal/api-keys`. */
export function decodeApiKeySetList(body: unknown): ApiKeySetData<ObfuscatedKey>[] {
  return readFields<{ items: ApiKeySetWire[] }, ApiKeySetData<ObfuscatedKey>[]>(body, (list) =>
    list.list('items', readApiKeySet),
  );
}

/** Decodes the answer of `POST /internal/api-keys`: the keys in full. */
export function decodeApiKeySetFirstView(body: unknown): ApiKeySetData<string> {
  return readFields<ApiKeySetFirstViewWire, ApiKeySetData<string>>(body, (set) => ({
    ...readKeySet(asBaseFields<KeySetWire, ApiKeySetFirstViewWire>(set)),
    ...keysOf((name) => optionalString(set, name) ?? null),
  }));
}

function readApiKeySet(set: Fields<ApiKeySetWire>): ApiKeySetData<ObfuscatedKey> {
  return {
    ...readKeySet(asBaseFields<KeySetWire, ApiKeySetWire>(set)),
    ...keysOf((name) => optionalObject(set, name, readObfuscatedKey) ?? null),
  };
}

type KeyName = 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key';
/** What both views of a key set share. */
type KeySetWire = Omit<ApiKeySetWire, KeyName>;

function keysOf<K>(
  key: (name: KeyName) => K | null,
): Pick<ApiKeySetData<K>, 'publishableClientKey' | 'secretServerKey' | 'superSecretAdminKey'> {
  return {
    publishableClientKey: key('publishable_client_key'),
    secretServerKey: key('secret_server_key'),
    superSecretAdminKey: key('super_secret_admin_key'),
  };
}

function readKeySet(set: Fields<KeySetWire>) {
  const revokedAt = optionalNumber(set, 'manually_revoked_at_millis');
  return {
    id: set.string('id'),
    description: set.string('description'),
    createdAt: new Date(set.number('created_at_millis')),
    expiresAt: new Date(set.number('expires_at_millis')),
    manuallyRevokedAt: revokedAt === undefined ? null : new Date(revokedAt),
  };
}

function readObfuscatedKey(key: Fields<ObfuscatedKeyWire>): ObfuscatedKey {
  return { lastFour: key.string('last_four') };
}

function keySetPath(id: string): string {
  return `/internal/api-keys/${encodeURIComponent(id)}`;
}
