/**
 * OAuth client authentication (wire-protocol §5.3, §9.1): the client id is the
 * project id and the client secret a publishable client key of it, checked in
 * constant time against every valid key. The token endpoint and the authorize
 * redirect both use it.
 */
import { KnownError } from '@latchkey/protocol';
import type { AuthCache } from '../access/auth-cache.js';
import { matchesValidKey } from '../api-keys/api-keys.js';
import type { Clock } from '../common/clock.js';
import type { ProjectRecord } from '../projects/projects.js';

/** The project whose client this is, or INVALID_OAUTH_CLIENT_ID_OR_SECRET. */
export async function authenticateOAuthClient(
  deps: { authCache: AuthCache; clock: Clock },
  clientId: string,
  clientSecret: string,
): Promise<ProjectRecord> {
  const refused = () => new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId || null });
  if (clientId === '' || clientSecret === '') throw refused();
  const keys = await deps.authCache.keys(clientId, 'publishableClientKey');
  if (matchesValidKey(keys, clientSecret, deps.clock.now()) === null) throw refused();
  const project = await deps.authCache.project(clientId);
  if (!project) throw refused();
  return project;
}
