/**
 * The session rules of spec §4 and wire-protocol.md §5: an access token is
 * used only with a refresh token and only while it has more than 20 s left;
 * otherwise it is refreshed, once per session however many callers wait; a
 * refused refresh ends the session. The string 'undefined' is never a token.
 *
 * A refresh that rotated the refresh token (`refresh-request.ts`) stores the
 * new one in its place.
 *
 * In the refresh-token cookie mode (`serviceCookie`) the refresh token is the
 * service's HttpOnly cookie, which no script reads: the store holds a random
 * handle in its place (a new one per sign-in, so tabs tell sessions apart),
 * and tokens leave the session with `refreshToken: null`.
 */
import { maxRequiredAccessTokenValidityMs, requiredAccessTokenValidityMs } from '@latchkey/protocol';
import type { Clock } from '../../options.js';
import { randomNonce } from '../http/nonce.js';
import { remainingValidityMs } from './jwt.js';
import type { Refresher } from './refresh-request.js';
import type { StoredTokens, TokenStore } from './stored-tokens.js';

/** A usable pair of tokens; `refreshToken` is `null` in the cookie mode, where the service's cookie holds it. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string | null;
}

export interface SessionOptions {
  store: TokenStore;
  clock: Clock;
  refresh: Refresher;
  /** The refresh-token cookie mode (`tokenStore: 'httponly-cookie'`). */
  serviceCookie?: boolean;
}

interface RefreshInFlight {
  refreshToken: string;
  promise: Promise<SessionTokens | null>;
}

/** Told the new refresh token (`null`: signed out) when the session changed without this app asking. */
export type SessionChangeListener = (refreshToken: string | null) => void;

export class Session {
  #refreshing: RefreshInFlight | null = null;
  readonly #listeners = new Set<SessionChangeListener>();
  #watchers = 0;
  #stopWatching: (() => void) | null = null;
  #knownRefreshToken: string | null;
  readonly #options: SessionOptions;

  /**
   * The session's mode: `true` in the refresh-token cookie mode
   * (`tokenStore: 'httponly-cookie'`), where sign-in answers leave the refresh
   * token in the service's cookie. Sign-in decoders and the pipeline ask it.
   */
  readonly serviceCookie: boolean;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.serviceCookie = options.serviceCookie === true;
    this.#knownRefreshToken = usableTokens(options.store.read()).refreshToken;
  }

  /**
   * The stored tokens with 'undefined' and empty strings treated as absent.
   * Every read also notices a session that changed elsewhere (another tab
   * signed out or in) and tells the `onChange` listeners.
   */
  stored(): StoredTokens {
    const tokens = usableTokens(this.#options.store.read());
    if (tokens.refreshToken !== this.#knownRefreshToken) {
      this.#knownRefreshToken = tokens.refreshToken;
      this.#emit(tokens.refreshToken);
    }
    return tokens;
  }

  /**
   * Tokens with more than `minValidityMs` (at most 60 s) left, refreshing when
   * needed; `null` when signed out.
   */
  async getTokens(minValidityMs: number = requiredAccessTokenValidityMs): Promise<SessionTokens | null> {
    const required = Math.min(minValidityMs, maxRequiredAccessTokenValidityMs);
    const { accessToken, refreshToken } = this.stored();
    if (!refreshToken) return null;
    if (accessToken && remainingValidityMs(accessToken, this.#options.clock.now()) > required) {
      return this.#tokens(accessToken, refreshToken);
    }
    return this.#refreshOnce(refreshToken);
  }

  /** Drops `accessToken` after the service refused it, so the next use refreshes first. */
  markAccessTokenExpired(accessToken: string): void {
    const stored = this.stored();
    if (stored.accessToken === accessToken) this.#options.store.write({ ...stored, accessToken: null });
  }

  /** Starts a new session (after a sign-in; in the cookie mode the service set its cookie, and `refreshToken` is `null`). */
  setTokens(tokens: SessionTokens): void {
    const refreshToken = this.serviceCookie ? randomNonce().slice(0, 16) : usableToken(tokens.refreshToken);
    this.#knownRefreshToken = refreshToken;
    this.#options.store.write({ refreshToken, accessToken: refreshToken ? usableToken(tokens.accessToken) : null });
  }

  /** Ends the session locally: tokens cleared, signed out. */
  clear(): void {
    this.#knownRefreshToken = null;
    this.#options.store.write({ accessToken: null, refreshToken: null });
  }

  /** Calls `listener` when the session changes without this app asking: another tab, or a refused refresh. */
  onChange(listener: SessionChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Watches the store for changes made elsewhere (the cookie store polls every
   * 100 ms) until every returned stop function has been called.
   */
  watch(): () => void {
    this.#stopWatching ??= this.#options.store.subscribe(() => this.stored());
    this.#watchers++;
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      if (--this.#watchers > 0) return;
      this.#stopWatching?.();
      this.#stopWatching = null;
    };
  }

  #emit(refreshToken: string | null): void {
    for (const listener of [...this.#listeners]) listener(refreshToken);
  }

  #refreshOnce(refreshToken: string): Promise<SessionTokens | null> {
    if (this.#refreshing?.refreshToken === refreshToken) return this.#refreshing.promise;
    const promise = this.#refresh(refreshToken).finally(() => {
      if (this.#refreshing?.promise === promise) this.#refreshing = null;
    });
    this.#refreshing = { refreshToken, promise };
    return promise;
  }

  async #refresh(refreshToken: string): Promise<SessionTokens | null> {
    const outcome = await this.#options.refresh(this.serviceCookie ? null : refreshToken);
    if (this.stored().refreshToken !== refreshToken) return this.getTokens();
    if (outcome.kind === 'refused') {
      this.clear();
      this.#emit(null);
      return null;
    }
    // A rotated token replaces the one sent (the cookie mode's stays in the service's cookie).
    const kept = (!this.serviceCookie && usableToken(outcome.refreshToken)) || refreshToken;
    this.#knownRefreshToken = kept;
    this.#options.store.write({ refreshToken: kept, accessToken: outcome.accessToken });
    return this.#tokens(outcome.accessToken, kept);
  }

  /** The tokens as they leave the session: the handle of the cookie mode stays inside. */
  #tokens(accessToken: string, refreshToken: string): SessionTokens {
    return { accessToken, refreshToken: this.serviceCookie ? null : refreshToken };
  }
}

function usableTokens(tokens: StoredTokens): StoredTokens {
  return { accessToken: usableToken(tokens.accessToken), refreshToken: usableToken(tokens.refreshToken) };
}

function usableToken(value: string | null | undefined): string | null {
  return value && value !== 'undefined' ? value : null;
}
