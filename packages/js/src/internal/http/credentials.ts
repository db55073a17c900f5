/**
 * Credential strategies: small request decorators that add an audience's
 * headers. `ClientApp` uses the publishable key plus the user's session; a
 * server or admin audience is another strategy on the same pipeline.
 */
import { type AccessType, headers, KnownError } from '@latchkey/protocol';
import type { ProjectOwnerSession } from '../../server-types.js';

/** Headers for one attempt, and how to repair them when the service refuses them. */
export interface PreparedCredentials {
  headers: Record<string, string>;
  /** True when the failure was repaired (an expired token dropped, say) and the attempt should be repeated. */
  recover?(error: KnownError): boolean;
}

/** Prepares the credentials of every attempt afresh (tokens may have been refreshed in between). */
export interface Credentials {
  prepare(): Promise<PreparedCredentials>;
}

/** A user session as the pipeline sees it. */
export interface SessionTokenSource {
  /** `refreshToken` is `null` in the refresh-token cookie mode: the service's cookie carries it. */
  getTokens(): Promise<{ accessToken: string; refreshToken: string | null } | null>;
  markAccessTokenExpired(accessToken: string): void;
}

/** Project keys sent with an access type, e.g. the publishable client key for `client` access. */
export function projectKeyCredentials(accessType: AccessType, keys: Record<string, string>): Credentials {
  const prepared: PreparedCredentials = { headers: { [headers.accessType]: accessType, ...keys } };
  return { prepare: async () => prepared };
}

/** No credentials at all, for the public routes (the project's JWKS). */
export const noCredentials: Credentials = { prepare: async () => ({ headers: {} }) };

/** `client` access with the publishable client key. */
export function publishableKeyCredentials(publishableClientKey: string): Credentials {
  return projectKeyCredentials('client', { [headers.publishableClientKey]: publishableClientKey });
}

/**
 * Adds the session's access and refresh tokens to `base` (the refresh token
 * only where the session holds it, not in the cookie mode). An
 * invalid-access-token answer drops the token that was sent, so the next
 * attempt refreshes it first.
 */
export function withSession(base: Credentials, session: SessionTokenSource): Credentials {
  return {
    async prepare() {
      const prepared = await base.prepare();
      const tokens = await session.getTokens();
      if (!tokens) return prepared;
      const sessionHeaders: Record<string, string> = { [headers.accessToken]: tokens.accessToken };
      if (tokens.refreshToken) sessionHeaders[headers.refreshToken] = tokens.refreshToken;
      return {
        headers: { ...prepared.headers, ...sessionHeaders },
        recover(error) {
          if (!error.is('INVALID_ACCESS_TOKEN')) return prepared.recover?.(error) ?? false;
          session.markAccessTokenExpired(tokens.accessToken);
          return true;
        },
      };
    },
  };
}

/**
 * The tokens of `owner` (a user of the `internal` project) right now; a
 * session that has ended is a `USER_AUTHENTICATION_REQUIRED` error.
 */
async function ownerTokens(owner: ProjectOwnerSession): Promise<{ accessToken: string; refreshToken: string }> {
  const { accessToken, refreshToken } = await owner.getTokens();
  if (accessToken && refreshToken) return { accessToken, refreshToken };
  throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, "The project owner's session has ended.");
}

/**
 * Access to a project its owner administers (wire-protocol.md §7.2): the
 * owner's access token as `x-stack-admin-access-token`, no project key. The
 * owner's session refreshes the token before it expires.
 */
export function adminAccessTokenCredentials(accessType: AccessType, owner: ProjectOwnerSession): Credentials {
  return {
    async prepare() {
      const { accessToken } = await ownerTokens(owner);
      return { headers: { [headers.accessType]: accessType, [headers.adminAccessToken]: accessToken } };
    },
  };
}

/** The owner as a signed-in user of the `internal` project (client access, its publishable key, §7.1). */
export function ownerSessionCredentials(publishableClientKey: string, owner: ProjectOwnerSession): Credentials {
  const base = publishableKeyCredentials(publishableClientKey);
  return {
    async prepare() {
      const [prepared, tokens] = await Promise.all([base.prepare(), ownerTokens(owner)]);
      const sessionHeaders = { [headers.accessToken]: tokens.accessToken, [headers.refreshToken]: tokens.refreshToken };
      return { headers: { ...prepared.headers, ...sessionHeaders } };
    },
  };
}
