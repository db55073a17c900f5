import type { WebhookEndpointWire, WebhookMessageWire } from '@latchkey/protocol';
import { type AdminSend, httpAdmin } from '../internal/admin-target.js';
import { parseCommandLine, parseCount } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { UsageError } from '../internal/errors.js';
import { formatRows, formatTable, formatTime } from '../internal/format.js';

const webhooksUsage = `Usage: latchkey webhooks <list|create|deliveries|replay> [options]

Manages the webhook endpoints of a project on a running service.

  latchkey webhooks list                 every endpoint, its state and event types
  latchkey webhooks create <url> [--events <type,type,...>] [--description <text>]
                       [--disabled]      a new endpoint (every event type unless
                                         --events); its secret is shown this once
  latchkey webhooks deliveries <endpoint-id> [--limit <n>] [--cursor <cursor>]
                                         the endpoint's messages, newest first
  latchkey webhooks replay <message-id>  sends a message again (same webhook-id)

Where:
      --api-url <url>    the running service, e.g. http://127.0.0.1:8102
      --project <id>     the project
      --admin-key <key>  the project's super secret admin key (or set
                         LATCHKEY_ADMIN_KEY, which stays out of ps)
      --json             print JSON (the API's shapes) instead of a table
  -h, --help             show this help
`;

const flags = {
  'api-url': { type: 'string' },
  project: { type: 'string' },
  'admin-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  events: { type: 'string' },
  description: { type: 'string' },
  disabled: { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

/** An endpoint and a message as the API shows them. */
type Endpoint = WebhookEndpointWire;
type Message = WebhookMessageWire;

const actions = ['list', 'create', 'deliveries', 'replay'] as const;
/** What each action takes as its argument (none for list), and the flags only it takes. */
const operands = { list: null, create: 'the endpoint URL', deliveries: 'the endpoint id', replay: 'the message id' };
const onlyWith = {
  events: 'create',
  description: 'create',
  disabled: 'create',
  limit: 'deliveries',
  cursor: 'deliveries',
};

/** `latchkey webhooks list|create|deliveries|replay`. */
export async function runWebhooks(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('webhooks', args, flags, 2);
  const [action, operand] = positionals;
  if (values.help || action === undefined) {
    (values.help ? context.stdout : context.stderr).write(webhooksUsage);
    return values.help ? 0 : 2;
  }
  if (!(actions as readonly string[]).includes(action)) {
    throw new UsageError(`unknown action "${action}": use ${actions.join(', ')}`, 'webhooks');
  }
  const act = action as (typeof actions)[number];
  const needs = operands[act];
  if (needs && !operand) throw new UsageError(`${act} needs ${needs}`, 'webhooks');
  if (!needs && operand) throw new UsageError(`unexpected argument "${operand}"`, 'webhooks');
  for (const [flag, owner] of Object.entries(onlyWith)) {
    if (values[flag as keyof typeof onlyWith] !== undefined && owner !== act) {
      throw new UsageError(`--${flag} goes with \`webhooks ${owner}\``, 'webhooks');
    }
  }
  const limit = parseCount('webhooks', 'limit', values.limit, { min: 1, max: 200 }, 50);
  const { send } = httpAdmin('webhooks', values, context);
  const print = (json: unknown, text: string) => context.stdout.write(values.json ? `${JSON.stringify(json)}\n` : text);

  if (act === 'list') {
    const list = await send<{ items: Endpoint[] }>('GET', '/webhooks/endpoints');
    print(list, endpointTable(list.items));
  } else if (act === 'create') {
    const created = await create(send, operand!, values);
    print(created, newEndpointText(created));
  } else if (act === 'deliveries') {
    const query = new URLSearchParams({ limit: String(limit) });
    if (values.cursor) query.set('cursor', values.cursor);
    const page = await send<{ items: Message[]; pagination?: { next_cursor?: string | null } }>(
      'GET',
      `/webhooks/endpoints/${encodeURIComponent(operand!)}/messages?${query}`,
    );
    const next = page.pagination?.next_cursor;
    print(page, `${messageTable(page.items)}${next ? `More: --cursor ${next}\n` : ''}`);
  } else {
    const message = await send<Message>('POST', `/webhooks/messages/${encodeURIComponent(operand!)}/replay`, {});
    print(message, `Message ${message.id} (${message.event_type}) is queued again: ${message.status}.\n`);
  }
  return 0;
}

function create(
  send: AdminSend,
  url: string,
  values: { events?: string; description?: string; disabled?: boolean },
): Promise<Endpoint & { secret: string }> {
  const events = values.events
    ?.split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  if (events?.length === 0) throw new UsageError('--events needs at least one event type', 'webhooks');
  return send('POST', '/webhooks/endpoints', {
    url,
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(events ? { event_types: events } : {}),
    ...(values.disabled ? { enabled: false } : {}),
  });
}

function state(endpoint: Endpoint): string {
  if (endpoint.enabled) return 'enabled';
  return endpoint.disabled_reason ? `disabled: ${endpoint.disabled_reason}` : 'disabled';
}

function endpointTable(endpoints: readonly Endpoint[]): string {
  if (endpoints.length === 0) return 'No webhook endpoints.\n';
  const rows = endpoints.map((endpoint) => [
    endpoint.id,
    state(endpoint),
    endpoint.event_types?.join(',') ?? 'all',
    formatTime(endpoint.created_at_millis),
    endpoint.url,
    endpoint.description,
  ]);
  return formatTable(['ID', 'STATE', 'EVENTS', 'CREATED (UTC)', 'URL', 'DESCRIPTION'], rows);
}

function messageTable(messages: readonly Message[]): string {
  if (messages.length === 0) return 'No deliveries.\n';
  const rows = messages.map((message) => [
    message.id,
    message.event_type,
    message.status,
    String(message.attempts),
    message.last_response_status === null ? '-' : String(message.last_response_status),
    formatTime(message.created_at_millis),
    message.delivered_at_millis === null ? formatTime(message.next_attempt_at_millis) : '-',
    message.last_error ?? '',
  ]);
  return formatTable(
    ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST STATUS', 'CREATED (UTC)', 'NEXT (UTC)', 'LAST ERROR'],
    rows,
  );
}

function newEndpointText(created: Endpoint & { secret: string }): string {
  const rows: Array<[string, string]> = [
    ['Endpoint ID', created.id],
    ['URL', created.url],
    ['Events', created.event_types?.join(', ') ?? 'all'],
    ['State', state(created)],
    ['Signing secret', created.secret],
  ];
  return `${formatRows(rows)}\nThe signing secret is shown this once: store it where your receiver verifies webhooks (verifyWebhook of @latchkey/js/server, or any Standard Webhooks library).\n`;
}
