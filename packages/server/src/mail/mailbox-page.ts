/**
 * The dev mailbox's pages, rendered on the server: no script, nothing fetched
 * from elsewhere but a mail's own images. A mail's HTML is shown in a
 * sandboxed `srcdoc` iframe without `allow-scripts` (its links still open in a
 * new tab), and every text from a mail is escaped.
 */
import type { OutboxRow } from '../storage/schema.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char]!);
}

/**
 * Headers of the mailbox pages: inline styles only for the page; the mail's
 * frame inherits the policy, so its images load but no script runs.
 */
export const mailboxPageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const style = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6470; --line: #d8dde3; --bg: #fff; --panel: #f6f8fa; --accent: #0b63c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ed; --muted: #a3acb8; --line: #343a42; --bg: #14171b; --panel: #1e2228; --accent: #6cb0ff; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 64rem; padding: 2rem 1.25rem; }
h1 { margin: 0 0 .25rem; font-size: 1.5rem; } .muted { color: var(--muted); font-size: .9rem; }
a { color: var(--accent); } a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
table { width: 100%; border-collapse: collapse; margin-top: 1.25rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .5rem .75rem .5rem 0; vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .85rem; }
td.subject a { font-weight: 600; text-decoration: none; } td.subject a:hover { text-decoration: underline; }
.status { display: inline-block; font-size: .75rem; font-weight: 700; padding: .05rem .5rem; border-radius: 999px; border: 1px solid var(--line); }
.status-sent { color: #1a7f37; } .status-failed { color: #c0362c; } .status-queued, .status-sending { color: #9a6700; }
@media (prefers-color-scheme: dark) { .status-sent { color: #4ac26b; } .status-failed { color: #ff7b72; } .status-queued, .status-sending { color: #d29922; } }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 1rem 0; } dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
iframe { width: 100%; min-height: 32rem; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
pre { background: var(--panel); border-radius: 8px; padding: .75rem 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin-top: 2rem; } .empty { padding: 2rem 0; color: var(--muted); }`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${style}</style></head><body>${body}</body></html>`;
}

function time(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 19);
}

function statusBadge(row: OutboxRow): string {
  return `<span class="status status-${escapeHtml(row.status)}">${escapeHtml(row.status)}</span>`;
}

/**
 * The list page: every message, newest first, each linking to its own page.
 *
 * @example
 * new Response(mailboxListPage(await listMailboxMails(db, { limit: 200 })), { headers: mailboxPageHeaders });
 */
export function mailboxListPage(rows: readonly OutboxRow[]): string {
  const table =
    rows.length === 0
      ? '<p class="empty">No mail yet. Mails the service sends in dev mode appear here.</p>'
      : `<table><thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Time (UTC)</th><th scope="col">Status</th></tr></thead><tbody>
${rows
  .map(
    (row) =>
      `<tr><td>${escapeHtml(row.recipient)}</td><td class="subject"><a href="/mailbox/${escapeHtml(row.id)}">${escapeHtml(row.subject) || '(no subject)'}</a></td><td><time datetime="${row.created_at.toISOString()}">${time(row.created_at)}</time></td><td>${statusBadge(row)}</td></tr>`,
  )
  .join('\n')}</tbody></table>`;
  return page(
    'Dev mailbox · Latchkey',
    `<header><h1>Dev mailbox</h1><p class="muted">Mail of projects without their own SMTP server, kept here because the service runs in dev mode. Reload to see new mail. JSON: <a href="/mailbox/api/messages">/mailbox/api/messages</a></p></header><main>${table}</main>`,
  );
}

/** Links in plain text made clickable, everything else escaped. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, index) =>
      index % 2 === 1
        ? `<a href="${escapeHtml(part)}" target="_blank" rel="noopener noreferrer">${escapeHtml(part)}</a>`
        : escapeHtml(part),
    )
    .join('');
}

/**
 * One message: its headers, the HTML part in a sandboxed frame (no scripts;
 * links open in a new tab through `<base target>`, which is why the CSP
 * leaves `base-uri` open) and the text part with clickable links.
 *
 * @example
 * new Response(mailboxMessagePage(row), { headers: mailboxPageHeaders });
 */
export function mailboxMessagePage(row: OutboxRow): string {
  const html =
    row.html === null
      ? '<p class="muted">The body is not kept once a mail is delivered over SMTP or given up on, nor after a week.</p>'
      : `<iframe title="HTML part of the mail" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${escapeHtml(
          `<base target="_blank">${row.html}`,
        )}"></iframe>`;
  const text = row.text_body === null ? '' : `<h2>Text</h2><pre>${linkify(row.text_body)}</pre>`;
  const error = row.last_error ? `<dt>Last error</dt><dd>${escapeHtml(row.last_error)}</dd>` : '';
  return page(
    `${row.subject || '(no subject)'} · Dev mailbox`,
    `<p><a href="/mailbox">← All mail</a></p><main><h1>${escapeHtml(row.subject) || '(no subject)'}</h1>
<dl><dt>To</dt><dd>${escapeHtml(row.recipient)}</dd><dt>Kind</dt><dd>${escapeHtml(row.kind)}</dd><dt>Time (UTC)</dt><dd>${time(row.created_at)}</dd><dt>Status</dt><dd>${statusBadge(row)}</dd>${error}</dl>
<h2>HTML</h2>${html}${text}</main>`,
  );
}
