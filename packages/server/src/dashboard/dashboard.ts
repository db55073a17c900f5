/**
 * The dashboard, served by the service itself at `/dashboard` (the built
 * `apps/dashboard`, a directory of static files): the same origin as the API,
 * in development and production. Not API routes: static files, and
 * `/dashboard/config.json` (what the page needs to sign its owner in).
 *
 * - Every path without a file extension answers the page (`index.html`), so
 *   the page's own routes (`/dashboard/projects/<id>/users`) load on reload.
 *   The page names its scripts relative to a `<base href>` written per
 *   request (`../../` from `/dashboard/projects/<id>/`), so it works under
 *   any path prefix a proxy mounts the service at, without being told it.
 * - A strict content security policy: scripts, styles, fonts and requests of
 *   this origin only (no inline script; inline styles for the e-mail
 *   previews), images also as `data:` and over HTTPS (profile pictures), no
 *   framing by other sites.
 * - Built files under `assets/` carry a content hash in their names and are
 *   cached for a year; the page and the config are never cached.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { textResponse } from '../http/responses.js';

/** What the dashboard page is told at start: the key it signs owners in with, and in development the owner. */
export interface DashboardConfig {
  /** A publishable client key of the `internal` project. */
  internalPublishableClientKey: string;
  /** Development only: the dev project's owner, for the one-click sign-in. */
  devOwner?: { email: string; password: string } | undefined;
}

/** `ServiceOptions.dashboard`: where the built dashboard is, and its config. */
export interface DashboardOptions {
  /** The built dashboard (`apps/dashboard/dist`): `index.html` and `assets/`. */
  dir: string;
  /** The config, read on each `/dashboard/config.json` (it may be made on first use). */
  config: () => DashboardConfig | Promise<DashboardConfig>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content security policy of every dashboard answer. */
export const dashboardCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const commonHeaders = {
  'content-security-policy': dashboardCsp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** The `<base href>` of a page at `rest` (the path below `/dashboard/`): one `../` per directory below it. */
export function baseHrefFor(rest: string): string {
  const depth = rest.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/**
 * Serves the dashboard on `app` at `/dashboard`.
 *
 * @example
 * mountDashboard(app, { dir: '/srv/latchkey/dashboard', config: () => ({ internalPublishableClientKey }) });
 */
export function mountDashboard(app: Hono<AppEnv>, options: DashboardOptions): void {
  const root = resolve(options.dir);
  let page: Promise<string> | undefined;
  const readPage = () => {
    page ??= readFile(join(root, 'index.html'), 'utf8').catch((error) => {
      page = undefined;
      throw error;
    });
    return page;
  };

  // `/dashboard` → `/dashboard/`, relative to where the request came from (a prefix stays in front).
  app.get('/dashboard', (c) => c.body(null, 308, { location: 'dashboard/', ...commonHeaders }));

  app.get('/dashboard/config.json', async (c) => {
    const config = await options.config();
    return c.body(JSON.stringify(config), 200, {
      ...commonHeaders,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
  });

  app.get('/dashboard/*', async (c) => {
    const rest = decoded(new URL(c.req.url).pathname.slice('/dashboard/'.length));
    if (rest === null) return textResponse(404, 'Not found');
    const extension = extname(rest);
    if (!extension) {
      const html = (await readPage()).replace('<base href="./" />', `<base href="${baseHrefFor(rest)}" />`);
      return c.body(html, 200, {
        ...commonHeaders,
        'content-type': contentTypes['.html']!,
        'cache-control': 'no-store',
      });
    }
    const file = normalize(join(root, rest));
    if (!file.startsWith(root + sep) || rest.includes('\0')) return textResponse(404, 'Not found');
    const body = await readFile(file).catch(() => null);
    if (!body) return textResponse(404, 'Not found');
    return c.body(body, 200, {
      ...commonHeaders,
      'content-type': contentTypes[extension] ?? 'application/octet-stream',
      ...(rest.startsWith('assets/') ? { 'cache-control': 'public, max-age=31536000, immutable' } : {}),
    });
  });
}

/** The path decoded, or null when it is not valid percent-encoding. */
function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
