/**
 * The API-key module of `AdminApp`: create key sets (their keys shown in
 * full once), list and read them (last four characters), revoke them, and
 * tell whether a set still works (spec §4).
 */
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import { systemClock } from '../internal/timers.js';
import type { Query } from '../query.js';
import {
  type ApiKeySetData,
  type CreateApiKeySetOptions,
  createApiKeySet,
  fetchApiKeySet,
  listApiKeySets,
  type ObfuscatedKey,
  revokeApiKeySet,
} from './api-keys-api.js';

/**
 * A key set, and what an administrator does with it. Its keys are full
 * strings right after creation (`K = string`), `{ lastFour }` afterwards.
 *
 * @example
 * ```ts
 * const set = await adminApp.createApiKeySet({ description: 'Backend', hasSecretServerKey: true });
 * saveSecret(set.secretServerKey!); // shown this once
 * await set.revoke();
 * ```
 */
export interface ApiKeySet<K = ObfuscatedKey> extends ApiKeySetData<K> {
  /** Why the keys no longer work (`'expired'` first, spec §4), or `null` while they do. */
  whyInvalid(): 'expired' | 'manually-revoked' | null;
  isValid(): boolean;
  /** Revokes the set: its keys stop working at once, everywhere. */
  revoke(): Promise<void>;
}

/**
 * What an administrator does with API keys.
 *
 * @example
 * ```ts
 * for (const set of await adminApp.listApiKeySets()) console.log(set.description, set.isValid());
 * ```
 */
export interface ApiKeySets {
  /** Creates a key set with the kinds of key asked for; the answer is the only time they are shown in full. */
  createApiKeySet(options: CreateApiKeySetOptions): Promise<ApiKeySet<string>>;
  /** The project's key sets, newest first, each key as its last four characters. */
  listApiKeySets(): Promise<ApiKeySet[]>;
  /** One key set; `null` when the project has none with this id. */
  getApiKeySet(id: string): Promise<ApiKeySet | null>;
}

/** The `ApiKeySet` of `set`, acting through the scope's `send`, telling validity by its clock. */
function apiKeySetObject<K>(set: ApiKeySetData<K>, scope: AudienceScope): ApiKeySet<K> {
  const clock = scope.options.clock ?? systemClock;
  const whyInvalid = () => {
    if (set.expiresAt.getTime() < clock.now()) return 'expired' as const;
    return set.manuallyRevokedAt ? ('manually-revoked' as const) : null;
  };
  return {
    ...set,
    whyInvalid,
    isValid: () => whyInvalid() === null,
    revoke: async () => void (await revokeApiKeySet(scope.send, set.id)),
  };
}

async function allKeySets(scope: AudienceScope): Promise<ApiKeySet[]> {
  return (await listApiKeySets(scope.send)).map((set) => apiKeySetObject(set, scope));
}

/**
 * The project's API key sets, newest first, as a query of `AdminApp`; creating or revoking one re-reads it.
 *
 * @example
 * ```ts
 * const sets = await adminApp.load(apiKeySetsQuery);
 * ```
 */
export const apiKeySetsQuery: Query<ApiKeySet[], AdminScope> = { key: ['apiKeySets'], load: allKeySets };

/** Mounts the API-key module on an audience with admin access. */
export function apiKeySets(scope: AudienceScope): ApiKeySets {
  const { send } = scope;
  const withActions = <K>(set: ApiKeySetData<K>) => apiKeySetObject(set, scope);
  return {
    createApiKeySet: async (options) => withActions(await createApiKeySet(send, options)),
    listApiKeySets: () => allKeySets(scope),
    async getApiKeySet(id) {
      const set = await fetchApiKeySet(send, id);
      return set && withActions(set);
    },
  };
}
