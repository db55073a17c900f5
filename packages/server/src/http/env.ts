/** Types shared by the middleware and the feature routes. */
import type { AccessType } from '@latchkey/protocol';
import type { AccessTokens } from '../tokens/access-tokens.js';
import type { SigningKeys } from '../tokens/signing-keys.js';
import type { ProjectRecord } from '../projects/project-store.js';
import type { Storage } from '../storage/open-storage.js';

/** The service's notion of time, in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** What the routes need, built once by `createService`. */
export interface Deps {
  storage: Storage;
  clock: Clock;
  signingKeys: SigningKeys;
  accessTokens: AccessTokens;
  bodyLimitBytes: number;
}

/** Who is calling: the result of project authentication (wire-protocol §4.4). */
export interface RequestAuth {
  accessType: AccessType;
  project: ProjectRecord;
  /** The user of a valid `x-stack-access-token`, if one was sent. */
  userId: string | null;
}

/** Per-request facts shared by the fetch wrapper and the app (request id, error code for the log). */
export interface RequestRecord {
  requestId: string;
  startedAt: number;
  errorCode?: string;
}

export interface AppEnv {
  Bindings: { record: RequestRecord };
  Variables: { auth: RequestAuth };
}
