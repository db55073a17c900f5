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

/** How a wrong client secret is refused. */
export type WrongSecretRefusal = 'client' | 'publishable-key';

/**
 * The project whose client this is, or INVALID_OAUTH_CLIENT_ID_OR_SECRET. With
 * `wrongSecret: 'publishable-key'` (the authorize redirect, as the original
 * backend) a secret that is not a key of an existing project is refused as the
 * key it stands for: INVALID_PUBLISHABLE_CLIENT_KEY (401) with the project id.
 */
export async function authenticateOAuthClient(
  deps: { authCache: AuthCache; clock: Clock },
  clientId: string,
  clientSecret: string,
  wrongSecret: WrongSecretRefusal = 'client',
): Promise<ProjectRecord> {
  const refused = () => new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId || null });
  if (clientId === '') throw refused();
  const project = await deps.authCache.project(clientId);
  if (!project) throw refused();
  const keys = clientSecret === '' ? [] : await deps.authCache.keys(clientId, 'publishableClientKey');
  if (matchesValidKey(keys, clientSecret, deps.clock.now()) === null) {
    if (wrongSecret === 'publishable-key')
      throw new KnownError('INVALID_PUBLISHABLE_CLIENT_KEY', { project_id: clientId });
    throw refused();
  }
  return project;
}
