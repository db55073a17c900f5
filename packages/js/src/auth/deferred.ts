/**
 * Methods of `ClientApp` and `CurrentUser` whose code is loaded on their
 * first call: passkeys (with the WebAuthn browser library) and the second
 * factor. `ClientApp` holds only one small function per method name; the
 * code sits in `account-security.ts`, a chunk of its own for bundlers that
 * split at `import()`, so a page that never calls them never loads it.
 */
import type { ClientScope } from '../users/account-data.js';

/** The methods of `I` as the lazily loaded module writes them: the scope first, then the method's arguments. */
export type WithScope<I> = {
  [K in keyof I]: I[K] extends (...args: infer A) => infer R ? (scope: ClientScope, ...args: A) => R : never;
};

/** The lazily loaded module of passkeys and the second factor. */
export const loadAccountSecurity = () => import('./account-security.js');

/** The methods `names` of `I` for `scope`, each loading `account-security.ts` on its call. */
export function deferred<I>(scope: ClientScope, names: readonly (keyof I & string)[]): I {
  const methods: Record<string, unknown> = {};
  for (const name of names) {
    methods[name] = async (...args: unknown[]) => {
      const method = (await loadAccountSecurity()).methods[
        name as keyof typeof import('./account-security.js').methods
      ];
      return (method as (scope: ClientScope, ...rest: unknown[]) => unknown)(scope, ...args);
    };
  }
  return methods as I;
}
