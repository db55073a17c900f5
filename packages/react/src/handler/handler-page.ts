/** Which handler page a path asks for. */

/**
 * The page name under `basePath` (`/handler/sign-in` -> `sign-in`), `''` for
 * the base path itself, or `null` when `pathname` is outside it.
 */
export function handlerPageOf(pathname: string, basePath: string): string | null {
  const base = pathOf(basePath).replace(/\/+$/, '');
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  return pathname.slice(base.length).replace(/^\/+|\/+$/g, '');
}

/** The path of a URL that may be relative or absolute. */
function pathOf(url: string): string {
  if (url.startsWith('/')) return url.split(/[?#]/)[0] ?? url;
  try {
    return new URL(url).pathname;
  } catch {
    return `/${url}`;
  }
}
