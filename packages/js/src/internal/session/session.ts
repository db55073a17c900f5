/**
 * The session rules of spec §4 and wire-protocol.md §5: an access token is
 * used only with a refresh token and only while it has more than 20 s left;
 * otherwise it is refreshed, once per session however many callers wait; a
 * refused refresh ends the session. The string 'undefined' is never a token.
 */
import { constants } from '@latchkey/protocol';
import type { Clock } from '../timers.js';
import { remainingValidityMs } from './jwt.js';
import type { Refresher } from './refresh-request.js';
import type { StoredTokens, TokenStore } from './token-store.js';

/** A usable pair of tokens. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export interface SessionOptions {
  store: TokenStore;
  clock: Clock;
  refresh: Refresher;
}

interface RefreshInFlight {
  refreshToken: string;
  promise: Promise<SessionTokens | null>;
}

export class Session {
  private refreshing: RefreshInFlight | null = null;
  private readonly listeners = new Set<() => void>();
  private stopWatching: (() => void) | null = null;
  private knownRefreshToken: string | null;

  constructor(private readonly options: SessionOptions) {
    this.knownRefreshToken = this.stored().refreshToken;
  }

  /** The stored tokens with 'undefined' and empty strings treated as absent. */
  stored(): StoredTokens {
    const tokens = this.options.store.read();
    return { accessToken: usableToken(tokens.accessToken), refreshToken: usableToken(tokens.refreshToken) };
  }

  /**
   * Tokens with more than `minValidityMs` (at most 60 s) left, refreshing when
   * needed; `null` when signed out.
   */
  async getTokens(minValidityMs: number = constants.requiredAccessTokenValidityMs): Promise<SessionTokens | null> {
    const required = Math.min(minValidityMs, constants.maxRequiredAccessTokenValidityMs);
    const { accessToken, refreshToken } = this.stored();
    if (!refreshToken) return null;
    if (accessToken && remainingValidityMs(accessToken, this.options.clock.now()) > required) {
      return { accessToken, refreshToken };
    }
    return this.refreshOnce(refreshToken);
  }

  /** Drops `accessToken` after the service refused it, so the next use refreshes first. */
  markAccessTokenExpired(accessToken: string): void {
    const stored = this.stored();
    if (stored.accessToken === accessToken) this.options.store.write({ ...stored, accessToken: null });
  }

  /** Starts a new session (after a sign-in). */
  setTokens(tokens: SessionTokens): void {
    const refreshToken = usableToken(tokens.refreshToken);
    this.knownRefreshToken = refreshToken;
    this.options.store.write({ refreshToken, accessToken: refreshToken ? usableToken(tokens.accessToken) : null });
  }

  /** Ends the session locally: tokens cleared, signed out. */
  clear(): void {
    this.knownRefreshToken = null;
    this.options.store.write({ accessToken: null, refreshToken: null });
  }

  /** Calls `listener` when the session changes without this app asking: another tab, or a refused refresh. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    this.stopWatching ??= this.options.store.subscribe(() => this.onStoreChange());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.stopWatching?.();
      this.stopWatching = null;
    };
  }

  private onStoreChange(): void {
    const refreshToken = this.stored().refreshToken;
    if (refreshToken === this.knownRefreshToken) return;
    this.knownRefreshToken = refreshToken;
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private refreshOnce(refreshToken: string): Promise<SessionTokens | null> {
    if (this.refreshing?.refreshToken === refreshToken) return this.refreshing.promise;
    const promise = this.refresh(refreshToken).finally(() => {
      if (this.refreshing?.promise === promise) this.refreshing = null;
    });
    this.refreshing = { refreshToken, promise };
    return promise;
  }

  private async refresh(refreshToken: string): Promise<SessionTokens | null> {
    const outcome = await this.options.refresh(refreshToken);
    if (this.stored().refreshToken !== refreshToken) return this.getTokens();
    if (outcome.kind === 'refused') {
      this.clear();
      this.emit();
      return null;
    }
    this.options.store.write({ refreshToken, accessToken: outcome.accessToken });
    return { accessToken: outcome.accessToken, refreshToken };
  }
}

function usableToken(value: string | null | undefined): string | null {
  return value && value !== 'undefined' ? value : null;
}
