/** The kinds of key a set may hold, in the order the pages show them. */
import type { ApiKeySetData } from '@latchkey/js/admin';

export const keyKinds = [
  { field: 'publishableClientKey', label: 'Publishable client key' },
  { field: 'secretServerKey', label: 'Secret server key' },
  { field: 'superSecretAdminKey', label: 'Super secret admin key' },
] as const satisfies readonly { field: keyof ApiKeySetData<unknown>; label: string }[];

export type KeyKind = (typeof keyKinds)[number]['field'];
