/**
 * @latchkey/next/server: Latchkey in the server code of a Next.js App Router
 * app. `getUser()` reads the session from the request's cookies in server
 * components, route handlers and server actions (verified locally; an
 * expired access token is refreshed, and the new cookies are written where
 * Next allows it: route handlers and server actions); `signOut()` ends it
 * from a server action or route handler; `LatchkeyProvider` goes in the root
 * layout and hands the user the server saw to `@latchkey/react`, so the first
 * HTML shows it; `HandlerPage` is the catch-all page of the handler routes.
 * Needs `LATCHKEY_API_URL`, `LATCHKEY_PROJECT_ID`,
 * `LATCHKEY_PUBLISHABLE_CLIENT_KEY` and `LATCHKEY_SECRET_SERVER_KEY`.
 *
 * @example
 * ```tsx
 * // app/account/page.tsx
 * import { getUser } from '@latchkey/next/server';
 *
 * export default async function Account() {
 *   const user = await getUser({ or: 'redirect', returnTo: '/account' });
 *   return <p>Signed in as {user.primaryEmail}</p>;
 * }
 * ```
 */
import { ClientApp, clientUserData, type HandlerUrls, KnownError } from '@latchkey/js';
import {
  createRequestAuth,
  type RequestAuth,
  type SessionCookie,
  serviceSessionCookies,
  sessionCookies,
} from '@latchkey/js/request-auth';
import { ServerApp } from '@latchkey/js/server';
import { afterAuthReturnToParam, refreshCookieName } from '@latchkey/protocol';
import { Handler, type LatchkeyProviderProps } from '@latchkey/react';
import { cookies, headers } from 'next/headers.js';
import { redirect } from 'next/navigation.js';
import { cache, type ReactNode } from 'react';
import { ClientProvider } from './client.js';
import {
  configKey,
  isHttpsCookie,
  type LatchkeyConfig,
  pathHeader,
  readConfig,
  readVariable,
  secretServerKeyVariable,
} from './config.js';

export type { LatchkeyConfig } from './config.js';

type ServerUser = NonNullable<Awaited<ReturnType<ServerApp['getUser']>>>;

/**
 * What `getUser` does when nobody is signed in: return `null` (default),
 * redirect to sign-in (coming back to `returnTo` afterwards), or throw
 * `USER_AUTHENTICATION_REQUIRED`.
 *
 * @example
 * ```ts
 * const options: GetUserOptions = { or: 'redirect', returnTo: '/account' };
 * ```
 */
export interface GetUserOptions {
  or?: 'return-null' | 'redirect' | 'throw';
  /**
   * With `or: 'redirect'`: the page to come back to after signing in; by
   * default the page asked for, as the middleware passes it (none without the middleware).
   */
  returnTo?: string;
}

interface Latchkey {
  config: LatchkeyConfig;
  auth: RequestAuth;
  serverApp: ServerApp;
}

let made: { key: string; latchkey: Latchkey } | null = null;

/** The apps of the environment's config, made once (the JWKS cache lives in them). */
function latchkey(): Latchkey {
  const config = readConfig();
  const key = configKey(config);
  if (made?.key !== key) {
    const secretServerKey = readVariable(secretServerKeyVariable);
    const serverApp = new ServerApp({ ...config, secretServerKey });
    made = { key, latchkey: { config, auth: createRequestAuth(config), serverApp } };
  }
  return made.latchkey;
}

type CookieStore = Awaited<ReturnType<typeof cookies>>;

/** Sets `list` on the response (`cookies().set` throws where Next does not allow it: a server component's render). */
function writeCookies(store: CookieStore, list: SessionCookie[]): void {
  const secure = store.getAll().some(({ name }) => isHttpsCookie(name));
  for (const { name, value, maxAgeSeconds, httpOnly } of list) {
    store.set(name, value, { maxAge: maxAgeSeconds, path: '/', sameSite: 'lax', secure, httpOnly });
  }
}

/** `writeCookies` where Next allows it (route handlers, server actions); a server component skips it. */
function tryWriteCookies(store: CookieStore, list: SessionCookie[]): void {
  try {
    writeCookies(store, list);
  } catch {
    // A server component: the middleware or the browser stores the refreshed session instead.
  }
}

/**
 * The session of a request's cookies, checked once per request however many
 * components ask (a server component cannot store a refreshed token, so
 * without this each would refresh again; concurrent ones share a refresh in `RequestAuth` too).
 */
const authenticated = cache((cookie: string) => latchkey().auth.authenticate({ cookie }));

/** The user of these tokens, read once per request however many components ask. */
const userOfTokens = cache(async (accessToken: string, refreshToken: string | null): Promise<ServerUser | null> => {
  return latchkey().serverApp.getUser({ tokenStore: { accessToken, refreshToken } });
});

/**
 * The signed-in user of the current request (the server view, with its
 * server metadata): the session cookies verified locally, refreshed when the
 * access token has expired. `null` when nobody is signed in, or what `or` asks for.
 *
 * @example
 * ```tsx
 * const user = await getUser(); // ServerUser | null
 * const sure = await getUser({ or: 'redirect', returnTo: '/account' }); // ServerUser
 * ```
 */
export async function getUser(options: GetUserOptions & { or: 'redirect' | 'throw' }): Promise<ServerUser>;
export async function getUser(options?: GetUserOptions): Promise<ServerUser | null>;
export async function getUser(options: GetUserOptions = {}): Promise<ServerUser | null> {
  const store = await cookies(); // first: it makes the page dynamic, so a build never needs the config
  const result = await authenticated(store.toString());
  if (result.cookies.length > 0) tryWriteCookies(store, result.cookies);
  const user =
    result.status === 'signed-in' && result.tokens.accessToken
      ? await userOfTokens(result.tokens.accessToken, result.tokens.refreshToken)
      : null;
  if (user || !options.or || options.or === 'return-null') return user;
  if (options.or === 'throw') throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, notSignedIn);
  const returnTo = options.returnTo ?? localPath((await headers()).get(pathHeader));
  const query = returnTo ? `?${new URLSearchParams({ [afterAuthReturnToParam]: returnTo })}` : '';
  redirect(`/handler/sign-in${query}`);
}

/** `path` when it is a path of this site (not `//host`, which a browser reads as another site), else null. */
function localPath(path: string | null): string | null {
  return path?.startsWith('/') && !/^\/[/\\]/.test(path) ? path : null;
}

const notSignedIn = "The request has no signed-in user, but getUser was called with { or: 'throw' }";

/**
 * Signs the current request's user out: ends the session on the service and
 * deletes the session cookies. Call it from a server action or a route
 * handler (where Next lets code write cookies); the next render sees nobody.
 *
 * @example
 * ```ts
 * // app/actions.ts
 * 'use server';
 * import { signOut } from '@latchkey/next/server';
 * import { redirect } from 'next/navigation.js';
 *
 * export async function signOutAction() {
 *   await signOut();
 *   redirect('/');
 * }
 * ```
 */
export async function signOut(): Promise<void> {
  const store = await cookies();
  const { config, auth } = latchkey();
  const tokens = auth.readTokens({ cookie: store.toString() });
  if (tokens.refreshToken) {
    const app = new ClientApp({ ...config, tokenStore: tokens });
    const user = await app.getUser();
    await user?.signOut({ noRedirect: true });
  }
  writeCookies(store, sessionCookies(config.projectId, null));
  // The refresh-token cookie mode: the access cookie, the service's cookie and the browser SDK's handle.
  const serviceCookie = [`__Host-${refreshCookieName(config.projectId)}`, refreshCookieName(config.projectId)].find(
    (name) => store.has(name),
  );
  if (serviceCookie) writeCookies(store, await serviceSessionCookies(config.projectId, null, serviceCookie));
}

/**
 * Props of `LatchkeyProvider`: those of `@latchkey/react`'s provider but the
 * app, which it makes, and the handler URLs to override.
 *
 * @example
 * ```tsx
 * const props: LatchkeyProviderProps = { theme: 'system', projectName: 'Acme' };
 * ```
 */
export interface NextLatchkeyProviderProps extends Omit<LatchkeyProviderProps, 'app'> {
  urls?: Partial<HandlerUrls>;
  /**
   * Where the browser keeps the session: `'cookie'` (default; the browser
   * SDK's readable cookies), or `'httponly-cookie'`, the refresh-token cookie
   * mode, with the service reachable under this app's origin (`/api/v1`) and
   * its cookie at `Path=/` (see the Next.js guide): no script sees the refresh token.
   */
  tokenStore?: 'cookie' | 'httponly-cookie';
  children?: ReactNode;
}

/**
 * The provider of the root layout: `@latchkey/react`'s, with a `ClientApp`
 * on the session cookies that starts with the user this request's server
 * render saw, so `useUser()` and `<UserButton />` show the user in the first
 * HTML, before any script runs.
 *
 * @example
 * ```tsx
 * // app/layout.tsx
 * import { LatchkeyProvider } from '@latchkey/next/server';
 *
 * export default function RootLayout({ children }: { children: React.ReactNode }) {
 *   return <html lang="en"><body><LatchkeyProvider projectName="Acme">{children}</LatchkeyProvider></body></html>;
 * }
 * ```
 */
export async function LatchkeyProvider({ children, ...props }: NextLatchkeyProviderProps) {
  const user = await getUser();
  const { config } = latchkey();
  return (
    <ClientProvider config={config} initialUser={user && clientUserData(user)} {...props}>
      {children}
    </ClientProvider>
  );
}

/**
 * Props Next gives the catch-all page `app/handler/[...latchkey]/page.tsx`.
 *
 * @example
 * ```ts
 * const props: HandlerPageProps = { params: Promise.resolve({ latchkey: ['sign-in'] }) };
 * ```
 */
export interface HandlerPageProps {
  params: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * The handler pages (sign-in, sign-up, sign-out, password reset, e-mail
 * verification, the OAuth and magic-link callbacks, account settings, team
 * invitations, ...) as one catch-all page. Inside the root layout's `LatchkeyProvider`.
 *
 * @example
 * ```ts
 * // app/handler/[...latchkey]/page.tsx
 * export { HandlerPage as default } from '@latchkey/next/server';
 * ```
 */
export async function HandlerPage({ params }: HandlerPageProps) {
  const segments = Object.values(await params).flatMap((value) => value ?? []);
  return <Handler pathname={`/handler/${segments.map(encodeURIComponent).join('/')}`} />;
}
