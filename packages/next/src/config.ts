/**
 * Where the app's service is and who the app is, from the environment (read
 * at each call, so `next start` takes them at run time, not at build time).
 */

import { cookieNames } from '@latchkey/protocol';

/**
 * The service and the project: what the browser may know too.
 *
 * @example
 * ```ts
 * const config: LatchkeyConfig = { baseUrl: 'https://auth.example.com', projectId, publishableClientKey };
 * ```
 */
export interface LatchkeyConfig {
  /** The service's origin (`LATCHKEY_API_URL`). */
  baseUrl: string;
  /** `LATCHKEY_PROJECT_ID`. */
  projectId: string;
  /** `LATCHKEY_PUBLISHABLE_CLIENT_KEY`. */
  publishableClientKey: string;
}

const variables = {
  baseUrl: 'LATCHKEY_API_URL',
  projectId: 'LATCHKEY_PROJECT_ID',
  publishableClientKey: 'LATCHKEY_PUBLISHABLE_CLIENT_KEY',
} as const satisfies Record<keyof LatchkeyConfig, string>;

/**
 * The request header by which the middleware hands the render the request's
 * path and query (`getUser({ or: 'redirect' })` comes back to it).
 */
export const pathHeader = 'x-latchkey-path';

/**
 * Whether a cookie of this name tells that the browser is on https: the
 * browser SDK's marker, or a `__Host-` cookie (the service's refresh cookie),
 * which browsers only keep from https.
 */
export function isHttpsCookie(name: string): boolean {
  return name === cookieNames.isHttps || name.startsWith('__Host-');
}

/** The secret server key's variable: read by server code only. */
export const secretServerKeyVariable = 'LATCHKEY_SECRET_SERVER_KEY';

/** `given` completed from the environment (each variable also as `NEXT_PUBLIC_<name>`); throws naming what is missing. */
export function readConfig(given: Partial<LatchkeyConfig> = {}): LatchkeyConfig {
  const read = (key: keyof LatchkeyConfig) => given[key] ?? readVariable(variables[key]);
  return { baseUrl: read('baseUrl'), projectId: read('projectId'), publishableClientKey: read('publishableClientKey') };
}

/** The variable `name` (or `NEXT_PUBLIC_<name>`); throws when neither is set. */
export function readVariable(name: string): string {
  const value = process.env[name] || process.env[`NEXT_PUBLIC_${name}`];
  if (!value) throw new Error(`@latchkey/next: set ${name} (see the Next.js guide of Latchkey).`);
  return value;
}

/** The same config as a string, to key what is made once per config. */
export function configKey(config: LatchkeyConfig): string {
  return JSON.stringify([config.baseUrl, config.projectId, config.publishableClientKey]);
}
