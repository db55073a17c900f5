/**
 * Where a session keeps its tokens. Every store holds a refresh token and an
 * access token; the session decides what they are worth.
 */
import type { Timers, TokenStoreOption } from '../../options.js';
import { cookieTokenStore } from './cookie-store.js';
import { serviceCookieStore } from './service-cookie-store.js';

/** The tokens a store holds; `null` for absent. */
export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

export interface TokenStore {
  read(): StoredTokens;
  write(tokens: StoredTokens): void;
  /** Calls `listener` when the tokens change other than through `write` (another tab, say). */
  subscribe(listener: () => void): () => void;
}

/** Tokens kept in this object only; lost on reload. */
export function memoryTokenStore(initial?: Partial<StoredTokens>): TokenStore {
  let tokens: StoredTokens = { accessToken: initial?.accessToken ?? null, refreshToken: initial?.refreshToken ?? null };
  return {
    read: () => tokens,
    write(next) {
      tokens = { ...next };
    },
    subscribe: () => () => {},
  };
}

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
  return memoryTokenStore({ accessToken: option.accessToken ?? null, refreshToken: option.refreshToken ?? null });
}
