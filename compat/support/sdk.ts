/**
 * Loads the official SDK (`@stackframe/js` 2.7.23) under Vitest.
 *
 * Vitest hands packages in node_modules to Node's own ESM loader, which
 * rejects the SDK's extension-less and directory imports (wire-protocol §16).
 * The resolve hook in `resolve-hook.mjs` fixes those for `@stackframe/*`
 * importers; it must be registered before the SDK's first import, hence the
 * dynamic import below rather than a static one.
 */
import { register } from 'node:module';

register(new URL('./resolve-hook.mjs', import.meta.url));

const sdk: typeof import('@stackframe/js') = await import('@stackframe/js');

export const { StackAdminApp, StackClientApp, StackServerApp } = sdk;
