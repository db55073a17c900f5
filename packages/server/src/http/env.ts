/** Types shared by the middleware and the feature routes: who is calling, and the request's record. */
import type { AccessType } from '@latchkey/protocol';
import type { ProjectRecord } from '../projects/projects.js';

/** Who is calling: the result of project authentication (wire-protocol §4.4). */
export interface RequestAuth {
  accessType: AccessType;
  project: ProjectRecord;
  /** The user of a valid `x-stack-access-token`, if one was sent. */
  userId: string | null;
  /** The session of that access token (its `sid`), when one was sent and names one. */
  sessionId?: string | null;
  /**
   * Who acts, for the audit log: the key set of a server or admin key, the
   * dashboard owner of an admin access token, or the client's user.
   */
  actorId?: string | null;
}

/** The client's address, user agent and country, as far as the service can tell. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  /** The ISO 3166 alpha-2 code of the trusted country header (`countryOf`); null when none is configured or sent. */
  country: string | null;
}

/** Per-request facts shared by the fetch wrapper and the app (request id, error code for the log). */
export interface RequestRecord {
  requestId: string;
  startedAt: number;
  /** The client's address: from the trusted proxy header when configured, else the socket's; null when unknown. */
  clientIp: string | null;
  errorCode?: string;
}

export interface AppEnv {
  Bindings: { record: RequestRecord };
  Variables: { auth: RequestAuth };
}
