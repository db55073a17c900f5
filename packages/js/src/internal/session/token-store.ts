/**
 * Where a session keeps its tokens: the store a `tokenStore` option names.
 */
import type { Timers, TokenStoreOption } from '../../options.js';
import { cookieTokenStore } from './cookie-store.js';
import { serviceCookieStore } from './service-cookie-store.js';
import { memoryTokenStore, type TokenStore } from './stored-tokens.js';

/**
 * Builds the store for a `tokenStore` option. A custom object is read once,
 * then kept in memory. `'cookie'` and `'httponly-cookie'` outside a browser
 * (server-side rendering) have no cookie jar and start signed out, in memory.
 */
export function createTokenStore(option: TokenStoreOption, projectId: string, timers?: Timers): TokenStore {
  if (option === 'memory') return memoryTokenStore();
  if (option === 'cookie' || option === 'httponly-cookie') {
    if (typeof document === 'undefined') return memoryTokenStore();
    return (option === 'cookie' ? cookieTokenStore : serviceCookieStore)({ projectId, timers });
  }
  return memoryTokenStore(option);
}
