/**
 * Public types of the server entry that its internals also use: where a
 * `ServerApp` or `AdminApp` finds the user of an incoming request, and a page
 * of a list. Defined here, on the public side, so no public type lives in
 * `src/internal`.
 */

/**
 * Request headers as Node (`IncomingMessage.headers`), the Fetch API
 * (`Headers`) or a plain object hold them. Names are matched case-insensitively.
 *
 * @example
 * ```ts
 * const headers: HeadersLike = { cookie: 'stack-refresh-<projectId>=...' };
 * ```
 */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Anything with request headers: a Fetch `Request`, a Node `IncomingMessage`,
 * an Express or Next.js request.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser({ tokenStore: request satisfies RequestLike });
 * ```
 */
export interface RequestLike {
  headers: HeadersLike;
}

/**
 * Where a server-side call finds the user's tokens: an incoming request (or
 * its headers), whose `x-stack-auth` header (`user.getAuthHeaders()`) or
 * cookies (`stack-refresh-<projectId>`, `stack-access`) carry them; or the
 * tokens themselves.
 *
 * @example
 * ```ts
 * await serverApp.getUser({ tokenStore: request });                        // Request, IncomingMessage
 * await serverApp.getUser({ tokenStore: { accessToken, refreshToken } }); // tokens you hold
 * ```
 */
export type RequestTokenStore =
  | RequestLike
  | HeadersLike
  | { accessToken?: string | null; refreshToken?: string | null };

/**
 * One page of a list and where the next one starts (`null`: this was the last).
 *
 * @example
 * ```ts
 * let page: Page<ServerUser> = await serverApp.listUsers();
 * while (page.nextCursor) page = await serverApp.listUsers({ cursor: page.nextCursor });
 * ```
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A dashboard user's session: a signed-in user of the `internal` project,
 * which owns projects (wire-protocol.md §7). The signed-in user of a
 * `ClientApp` on the `internal` project is one; anything that hands out
 * fresh tokens is.
 *
 * @example
 * ```ts
 * const internalApp = new ClientApp({ projectId: 'internal', publishableClientKey, baseUrl, tokenStore: 'cookie' });
 * const projectOwnerSession: ProjectOwnerSession = await internalApp.getUser({ or: 'throw' });
 * ```
 */
export interface ProjectOwnerSession {
  getTokens(): Promise<{ accessToken: string | null; refreshToken: string | null }>;
}
