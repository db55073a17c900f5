/**
 * What server-side audiences (`ServerApp`, `AdminApp`) are made of: a scope
 * (the shared core, the audience's credentials) that resource modules are
 * mounted on, and a base class that puts the mounted modules' methods on the
 * instance. A capability is written once, as a module, and every audience
 * that has it mounts it; audiences never extend one another.
 */
import type { Core, CoreOptions, Send } from './core.js';
import type { Credentials } from './http/credentials.js';

/** What a module mounted on a server-side audience works with. */
export interface AudienceScope {
  /** `ServerApp` or `AdminApp`, for the messages of developer errors. */
  readonly audience: string;
  readonly core: Core<null>;
  /** The options the core was made from: a request's session is made from them too. */
  readonly options: CoreOptions;
  /** The audience's credentials (its key, or an admin access token). */
  readonly credentials: Credentials;
  /** `send` with those credentials. */
  readonly send: Send;
  /** Refreshes the sessions of incoming requests; absent when the audience was given none. */
  readonly publishableClientKey: string | undefined;
}

/**
 * A base class whose constructor puts the members of `modules` on the
 * instance, typed as `M`: `class ServerApp extends mounted<ServerAppModules>()`.
 */
export function mounted<M extends object>(): new (modules: M) => M {
  return class Mounted {
    constructor(modules: M) {
      Object.assign(this, modules);
    }
  } as new (
    modules: M,
  ) => M;
}

/**
 * Refuses a secret key where a page could read it: an app built with the
 * secret server key or the super secret admin key in a browser (where
 * `window` or `document` exist) throws before sending anything.
 */
export function refuseSecretKeyInBrowser(audience: string, keyName: string): void {
  if (typeof window === 'undefined' && typeof document === 'undefined') return;
  throw new Error(
    `${audience}: the ${keyName} must never reach a browser, where anyone can read it. ` +
      `Use ${audience} in server code only (import it from '@latchkey/js/server'), and ClientApp in the browser.`,
  );
}
