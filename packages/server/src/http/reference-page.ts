/**
 * The API reference page (`/api/v1/docs`): the OpenAPI document rendered to
 * one self-contained HTML page on the server — no script, nothing fetched
 * from elsewhere, served under a CSP that allows neither.
 */

type Operation = {
  summary: string;
  tags: string[];
  'x-latchkey-access': string;
  'x-latchkey-user-required': boolean;
  'x-latchkey-errors': string[];
  'x-latchkey-route-errors': string[];
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: unknown; 'x-latchkey-view-by-access'?: Record<string, Schema> }>;
    }
  >;
};

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char]!);
}

type Schema = {
  type?: string | string[];
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
};

/** A short type for a field: `string | null`, `array of ClientUser`, `"totp"`. */
function typeSummary(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split('/').pop()!;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeSummary).join(' | ');
  if (schema.type === 'array') return `array of ${schema.items ? typeSummary(schema.items) : 'any'}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}

/** The fields of an object schema as a table, then the whole schema behind a disclosure. */
function schemaBlock(label: string, schema: Schema, components: Record<string, Schema>): string {
  const resolved = schema.$ref ? (components[schema.$ref.split('/').pop()!] ?? schema) : schema;
  const fields = Object.entries(resolved.properties ?? {});
  const table =
    fields.length === 0
      ? ''
      : `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th></tr></thead><tbody>${fields
          .map(
            ([name, field]) =>
              `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeSummary(field))}</td><td>${
                (resolved.required ?? []).includes(name) ? 'yes' : 'no'
              }</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const name = schema.$ref ? ` — ${escapeHtml(typeSummary(schema))}` : '';
  return `<h4>${escapeHtml(label)}${name}</h4>${table}<details><summary>JSON Schema</summary><pre>${escapeHtml(
    JSON.stringify(schema, null, 2),
  )}</pre></details>`;
}

const accessText: Record<string, string> = {
  none: 'no project keys',
  client: 'client, server or admin',
  server: 'server or admin',
  admin: 'admin',
};

function operationHtml(method: string, path: string, operation: Operation, components: Record<string, Schema>): string {
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  const parts = [
    `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${escapeHtml(operation.summary)}</p>`,
    `<p class="meta">Access: <b>${escapeHtml(accessText[operation['x-latchkey-access']] ?? operation['x-latchkey-access'])}</b>${
      operation['x-latchkey-user-required'] ? ' · a signed-in user is required' : ''
    }</p>`,
  ];
  if (operation.parameters.length > 0) {
    const rows = operation.parameters
      .map((p) => `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})</li>`)
      .join('');
    parts.push(`<ul class="params">${rows}</ul>`);
  }
  for (const [type, { schema }] of Object.entries(operation.requestBody?.content ?? {})) {
    parts.push(schemaBlock(`Request body (${type})`, schema as Schema, components));
  }
  if (success) {
    for (const [type, content] of Object.entries(success[1].content ?? {})) {
      const views = Object.entries(content['x-latchkey-view-by-access'] ?? {});
      if (views.length > 1) {
        for (const [access, schema] of views) {
          parts.push(schemaBlock(`Answer ${success[0]} to ${access} access (${type})`, schema, components));
        }
      } else {
        parts.push(schemaBlock(`Answer ${success[0]} (${type})`, content.schema as Schema, components));
      }
    }
  }
  const codes = (list: string[]) => list.map((code) => `<code>${escapeHtml(code)}</code>`).join(' ');
  const own = operation['x-latchkey-route-errors'];
  const common = operation['x-latchkey-errors'].filter((code) => !own.includes(code));
  parts.push(`<p class="errors">Known errors: ${codes(own) || 'none of its own'}</p>`);
  if (common.length > 0) {
    parts.push(
      `<details class="errors"><summary>…and ${common.length} of authentication and validation</summary><p>${codes(common)}</p></details>`,
    );
  }
  return `<article id="${escapeHtml(`${method}-${path}`)}">${parts.join('\n')}</article>`;
}

const style = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6470; --line: #d8dde3; --bg: #fff; --code: #f3f5f7; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ed; --muted: #a3acb8; --line: #343a42; --bg: #14171b; --code: #1e2228; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 60rem; padding: 2rem 1.25rem; }
h1 { margin: 0 0 .25rem; } h2 { border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2.5rem; text-transform: capitalize; }
article { border: 1px solid var(--line); border-radius: 8px; padding: .25rem 1rem; margin: 1rem 0; }
h3 { font-size: 1rem; margin: .75rem 0 .25rem; } .meta, .errors { color: var(--muted); font-size: .9rem; }
code, pre { background: var(--code); border-radius: 4px; padding: 0 .25rem; font-size: .85rem; } pre { padding: .75rem; overflow: auto; }
.method { display: inline-block; min-width: 4rem; font-size: .75rem; font-weight: 700; letter-spacing: .03em; }
.get { color: #1a7f37; } .post { color: #0b63c5; } .patch { color: #9a6700; } .delete { color: #c0362c; } .put { color: #8250df; }
summary { cursor: pointer; color: var(--muted); } nav a { margin-right: .75rem; } a { color: inherit; }
h4 { font-size: .9rem; margin: .75rem 0 .25rem; } table { border-collapse: collapse; font-size: .85rem; margin-bottom: .25rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .2rem .75rem .2rem 0; } th { color: var(--muted); font-weight: 600; }`;

/**
 * The reference page of an OpenAPI document made by `openApiDocument`.
 *
 * @example
 * const html = referencePage(openApiDocument(apiRoutes, { version }));
 */
export function referencePage(document: Record<string, unknown>): string {
  const info = document.info as { title: string; version: string; description: string };
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const components = ((document.components as { schemas?: Record<string, Schema> }).schemas ?? {}) as Record<
    string,
    Schema
  >;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, operation, components)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const sections = tags.map(
    (tag) => `<section id="${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>${byTag.get(tag)!.join('\n')}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title><style>${style}</style></head>
<body><header><h1>${escapeHtml(info.title)}</h1><p>Version ${escapeHtml(info.version)} · base path <code>/api/v1</code> · <a href="openapi.json">openapi.json</a></p>
<p>${escapeHtml(info.description)}</p><nav>${tags.map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join('')}</nav></header>
<main>${sections.join('\n')}</main></body></html>`;
}

/**
 * Headers of the reference page: HTML, and a CSP that allows inline styles and
 * nothing else, and no page of another site to frame it. (`nosniff` is on
 * every answer, `request-log.ts`.)
 */
export const referencePageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};
