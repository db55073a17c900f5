/**
 * The SDK core every audience shares (STYLE.md item 2): the request pipeline,
 * the optional user session, the data cache, the resolved URLs and validated
 * redirects. An audience is a short file on top: its credentials (a request
 * decorator from `http/credentials.ts`) plus the resource modules it mounts.
 * `ClientApp` sends the publishable key and the session; a server app sends
 * its secret key (and a session only when given a token store); an admin app
 * its admin key or admin access token. No audience extends another.
 */
import { redirectWaitMs } from '@latchkey/protocol';
import type { Clock, FetchFunction, Timers, TokenStoreOption } from '../options.js';
import { type HandlerUrls, resolveUrls } from '../urls.js';
import type { QueryCacheOptions } from './cache/query-cache.js';
import { type Decoder, decodeAnswer } from './decode/fields.js';
import type { Credentials } from './http/credentials.js';
import { type ApiRequest, createPipeline } from './http/request.js';
import { currentLocation, leaveTo, redirectTo } from './redirect.js';
import { createRefresher } from './session/refresh-request.js';
import { Session } from './session/session.js';
import { createTokenStore } from './session/token-store.js';
import { systemClock } from './timers.js';

/** What every audience configures the same way. */
export interface CoreOptions {
  projectId: string;
  baseUrl: string;
  fetch?: FetchFunction;
  clock?: Clock;
  timers?: Timers;
  urls?: Partial<HandlerUrls>;
  navigate?: (url: string) => void;
}

/** A user session: where its tokens live, and the client secret its refresh call sends (wire-protocol.md §5.3). */
export interface SessionOptions {
  tokenStore: TokenStoreOption;
  publishableClientKey: string;
}

/** One call with the credentials already chosen: the request and the pure decoder of its answer. */
export type Send = <T>(request: ApiRequest, decode: Decoder<T>) => Promise<T>;

export interface Core<S extends Session | null = Session | null> {
  readonly projectId: string;
  readonly urls: HandlerUrls;
  /** The user session; `null` for an audience without one. */
  readonly session: S;
  /** How the audience's cache is set up (its timers count the 5 s drop); `createDataStore` makes it. */
  readonly cache: QueryCacheOptions;
  /** Sends `request` with `credentials` and decodes the 2xx answer; a malformed answer names the call. */
  send<T>(credentials: Credentials, request: ApiRequest, decode: Decoder<T>): Promise<T>;
  /** `send` bound to one set of credentials, as resource modules take it. */
  sender(credentials: Credentials): Send;
  /** Validated navigation (spec §2), then the 2000 ms wait for the page to go. */
  redirect(target: string): Promise<void>;
  /** Navigation to a URL the SDK built on another origin (the service's OAuth authorize URL), then the same wait. */
  leave(url: string): Promise<void>;
}

export function createCore(options: CoreOptions, session: SessionOptions): Core<Session>;
export function createCore(options: CoreOptions): Core<null>;
export function createCore(options: CoreOptions, sessionOptions?: SessionOptions): Core {
  const { projectId, baseUrl, fetch, navigate, timers } = options;
  const session = sessionOptions ? createUserSession(options, sessionOptions) : null;
  // The service's cookie reaches only its own origin's pages: fail here, not at the first refresh after a reload.
  const page = session?.serviceCookie && currentLocation();
  if (page && new URL(baseUrl, page).origin !== page.origin) {
    throw new Error(`tokenStore 'httponly-cookie' needs the service on this origin, not ${baseUrl}`);
  }
  const pipeline = createPipeline({ baseUrl, projectId, fetch, timers, serviceCookie: session?.serviceCookie });
  const send = async <T>(credentials: Credentials, request: ApiRequest, decode: Decoder<T>): Promise<T> =>
    decodeAnswer(`${request.method} ${request.path}`, await pipeline(request, credentials), decode);
  const navigation = { navigate, timers, waitAfterNavigateMs: redirectWaitMs };
  return {
    projectId,
    urls: Object.freeze(resolveUrls(options.urls)),
    session,
    cache: { timers },
    send,
    sender: (credentials) => (request, decode) => send(credentials, request, decode),
    redirect: (target) => redirectTo(target, navigation),
    leave: (url) => leaveTo(url, navigation),
  };
}

/**
 * A user session on the service of `options`: the tokens in `session`'s store,
 * refreshed with its publishable key (wire-protocol.md §5.3). `createCore`
 * makes one for `ClientApp`; server code makes one per incoming request.
 */
export function createUserSession(options: CoreOptions, session: SessionOptions): Session {
  const { projectId, baseUrl, fetch, timers } = options;
  const clock = options.clock ?? systemClock;
  const serviceCookie = session.tokenStore === 'httponly-cookie';
  const refresh = createRefresher({
    baseUrl,
    projectId,
    publishableClientKey: session.publishableClientKey,
    fetch,
    clock,
    timers,
    serviceCookie,
    // Rotated where the new token replaces the old one for every user of the session: not for given tokens.
    rotates: session.tokenStore === 'memory' || session.tokenStore === 'cookie',
  });
  const store = createTokenStore(session.tokenStore, projectId, timers);
  return new Session({ store, clock, refresh, serviceCookie });
}
