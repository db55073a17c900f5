/**
 * Methods of `ClientApp` and `CurrentUser` whose code is loaded on their
 * first call: passkeys (with the WebAuthn browser library) and the second
 * factor (`account-security.ts`), and the e-mail flows of the handler pages
 * (`email-flows.ts`). `ClientApp` holds only their names and one small
 * function each; the code sits in a chunk of its own for bundlers that split
 * at `import()`, so a page that never calls them never loads it.
 */
import type { ClientScope } from '../users/account-data.js';
import type { MfaActions, MfaSignIn } from './mfa-auth.js';
import type { PasskeyActions, PasskeySignIn } from './passkey-auth.js';

/** The methods of `I` as the lazily loaded module writes them: the scope first, then the method's arguments. */
export type WithScope<I> = {
  [K in keyof I]: I[K] extends (...args: infer A) => infer R ? (scope: ClientScope, ...args: A) => R : never;
};

/** The lazily loaded module of passkeys and the second factor. */
const loadAccountSecurity = () => import('./account-security.js');

/** A module loaded on a call, with the methods it writes. */
type MethodsModule = { methods: object };

/**
 * The methods `names` (space-separated) for `scope`, each loading `load`'s
 * module on its call and calling its method of that name with `scope` first.
 */
export const deferred = <I>(scope: ClientScope, load: () => Promise<MethodsModule>, names: string): I =>
  Object.fromEntries(
    names
      .split(' ')
      .map((name) => [
        name,
        (...args: unknown[]) =>
          load().then(({ methods }) =>
            (methods as Record<string, (scope: ClientScope, ...rest: unknown[]) => unknown>)[name]!(scope, ...args),
          ),
      ]),
  ) as I;

/** The passkey and second-factor module of `ClientApp`. */
export const accountSecuritySignIn = (scope: ClientScope) =>
  deferred<PasskeySignIn & MfaSignIn>(
    scope,
    loadAccountSecurity,
    'signInWithPasskey signInWithMfa startMfaSetup confirmMfaSetup',
  );

/** The passkeys and mfa slices of the signed-in user of `scope`. */
export const accountSecurityActions = (scope: ClientScope) =>
  deferred<PasskeyActions & MfaActions>(
    scope,
    loadAccountSecurity,
    'registerPasskey listPasskeys enableTotp confirmTotp disableTotp regenerateRecoveryCodes',
  );
