/**
 * Node module-resolve hook for the official Stack Auth SDK (wire-protocol §16).
 *
 * `@stackframe/js` and `@stackframe/stack-shared` 2.7.23 publish ESM with
 * extension-less and directory imports (`from '../known-errors'`,
 * `from './apps'`, `from '..'`), which Node's ESM resolver rejects with ERR_MODULE_NOT_FOUND
 * or ERR_UNSUPPORTED_DIR_IMPORT. For importers inside `@stackframe/*` only,
 * a failing relative specifier is retried with `.js`, then with `/index.js`.
 * Everything else resolves untouched.
 */
const retryable = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const fromSdk = context.parentURL?.includes('/node_modules/@stackframe/');
    const relative = /^\.\.?(\/|$)/.test(specifier);
    if (!fromSdk || !relative || !retryable.has(error?.code)) throw error;
    for (const suffix of ['.js', '/index.js']) {
      try {
        return await nextResolve(specifier + suffix, context);
      } catch {
        // try the next suffix
      }
    }
    throw error;
  }
}
