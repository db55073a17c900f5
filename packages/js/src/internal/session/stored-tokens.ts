/**
 * What a store of session tokens is: every store holds a refresh token and an
 * access token; the session decides what they are worth. The stores
 * (memory here, cookies in `cookie-store.ts` and `service-cookie-store.ts`)
 * implement it; `token-store.ts` picks one for a `tokenStore` option.
 */

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
