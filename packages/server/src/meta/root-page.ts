/**
 * The service root, `GET /`: a small page for a person who opens the
 * service's address in a browser, linking to what this service serves — the
 * dashboard (when served), the API reference, and in development the dev
 * mailbox. No script, nothing fetched from elsewhere. The API itself lives
 * under `/api/v1` and answers as before.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';

/** What the root page links to, besides the API reference. */
export interface RootPageLinks {
  dashboard: boolean;
  mailbox: boolean;
}

const headers = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const style = `:root { color-scheme: light dark; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 36rem; padding: 3rem 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; } p { margin: 0 0 1.5rem; } li { margin: .5rem 0; }`;

/** The root page's HTML for a service serving `links`. */
function rootPage(links: RootPageLinks): string {
  const items = [
    links.dashboard ? '<li><a href="/dashboard/">Dashboard</a>: projects, users, keys and settings</li>' : '',
    '<li><a href="/api/v1/docs">API reference</a>: every route of <code>/api/v1</code></li>',
    links.mailbox ? '<li><a href="/mailbox">Dev mailbox</a>: the mail this development service sent</li>' : '',
  ].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Latchkey</title><style>${style}</style></head><body><main><h1>Latchkey</h1>
<p>This is a Latchkey authentication service. Apps talk to its API at <code>/api/v1</code>.</p>
<ul>${items}</ul></main></body></html>`;
}

/**
 * Serves the root page at `/` (exactly: every other path is as before).
 *
 * @example
 * mountRootPage(app, { dashboard: Boolean(options.dashboard), mailbox: Boolean(options.devMailbox) });
 */
export function mountRootPage(app: Hono<AppEnv>, links: RootPageLinks): void {
  const page = rootPage(links);
  app.get('/', (c) => c.body(page, 200, headers));
}
