/**
 * The OpenAPI 3.1 document of the service, generated from the route
 * declarations: paths, access level (security and `x-latchkey-access`),
 * request and answer schemas (zod's JSON Schema, 2020-12 dialect, which
 * OpenAPI 3.1 uses) and the known errors each route may answer, grouped by
 * status.
 */
import { type AccessType, errorCatalogue, headers, type KnownErrorCode } from '@latchkey/protocol';
import { z } from 'zod';
import { implicitErrors } from './mount-routes.js';
import { type AnswerSpec, isFormBody, isSchema, isViewSet, type Route } from './route.js';

type JsonSchema = Record<string, unknown>;

/** A definition's content with its own name taken out, so equal recursive definitions compare equal. */
function contentKey(name: string, def: JsonSchema): string {
  const { description: _description, ...rest } = def;
  return JSON.stringify(rest).replaceAll(`"#/$defs/${name}"`, '"#self"');
}

/** Hoists `$defs` into components, renaming anonymous ones so conversions of different schemas never clash. */
class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};
  #anonymous = 0;
  /** Anonymous definitions seen so far, by content (with their own name taken out), to name each once. */
  readonly #byContent = new Map<string, string>();

  constructor() {
    // zod's recursive JSON value (`z.json()`, metadata fields) is the one anonymous schema that recurs: name it.
    const json = z.toJSONSchema(z.object({ value: z.json() })) as { $defs: Record<string, JsonSchema> };
    const [name, def] = Object.entries(json.$defs)[0]!;
    this.#byContent.set(contentKey(name, def), 'Json');
  }

  #nameFor(name: string, def: JsonSchema): string {
    if (!name.startsWith('__schema')) return name;
    const key = contentKey(name, def);
    let chosen = this.#byContent.get(key);
    if (!chosen) {
      chosen = `Anonymous${++this.#anonymous}`;
      this.#byContent.set(key, chosen);
    }
    return chosen;
  }

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _dialect,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const renames = new Map<string, string>();
    for (const [name, def] of Object.entries($defs ?? {})) renames.set(name, this.#nameFor(name, def));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (typeof value !== 'object' || value === null) return value;
      const out: JsonSchema = {};
      for (const [key, item] of Object.entries(value)) {
        out[key] =
          key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')
            ? `#/components/schemas/${renames.get(item.slice(8)) ?? item.slice(8)}`
            : rewrite(item);
      }
      return out;
    };
    for (const [name, def] of Object.entries($defs ?? {}))
      this.components[renames.get(name)!] ??= rewrite(def) as JsonSchema;
    return rewrite(root) as JsonSchema;
  }
}

const credentialSchemes: Record<string, { header: string; description: string }> = {
  projectId: { header: headers.projectId, description: 'The project id.' },
  accessType: { header: headers.accessType, description: '`client`, `server` or `admin`.' },
  publishableClientKey: { header: headers.publishableClientKey, description: 'Client access.' },
  secretServerKey: { header: headers.secretServerKey, description: 'Server access.' },
  superSecretAdminKey: { header: headers.superSecretAdminKey, description: 'Admin access.' },
  adminAccessToken: {
    header: headers.adminAccessToken,
    description: "Admin access: a project owner's access token on the internal project.",
  },
  accessToken: { header: headers.accessToken, description: "The signed-in user's access token." },
};

function security(access: AccessType, user: boolean): Record<string, string[]>[] {
  const base = { projectId: [], accessType: [], ...(user ? { accessToken: [] } : {}) };
  const keys: Record<AccessType, string[]> = {
    client: ['publishableClientKey'],
    server: ['secretServerKey'],
    admin: ['superSecretAdminKey', 'adminAccessToken'],
  };
  const accepted = (['client', 'server', 'admin'] as const).slice(['client', 'server', 'admin'].indexOf(access));
  return accepted.flatMap((type) => keys[type].map((key) => ({ ...base, [key]: [] })));
}

/** None for `none`; for `optional`, none or a client's (`{}` first: anonymous callers are let in). */
function securityOf(route: Route): Record<string, string[]>[] {
  if (route.access === 'none') return [];
  if (route.access === 'optional') return [{}, ...security('client', false)];
  return security(route.access, route.user === true);
}

function answerContent(spec: AnswerSpec, schemas: SchemaSet): Record<string, unknown> {
  if (spec === 'text') return { 'text/plain': { schema: { type: 'string' } } };
  if (isSchema(spec)) return { 'application/json': { schema: schemas.convert(spec, 'output') } };
  const byAccess = (['client', 'server', 'admin'] as const).flatMap((type) => {
    const view = isViewSet(spec) ? spec[type] : undefined;
    return view ? [{ type, schema: schemas.convert(view.schema, 'output') }] : [];
  });
  const schema = byAccess.length === 1 ? byAccess[0]!.schema : { oneOf: byAccess.map((entry) => entry.schema) };
  return {
    'application/json': {
      schema,
      'x-latchkey-view-by-access': Object.fromEntries(byAccess.map((entry) => [entry.type, entry.schema])),
    },
  };
}

function requestBody(route: Route, schemas: SchemaSet): Record<string, unknown> | undefined {
  if (route.method === 'GET' || route.body === undefined) return undefined;
  if (isFormBody(route.body)) {
    return {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: schemas.convert(route.body.form, 'input') } },
    };
  }
  if (isSchema(route.body)) {
    return { required: false, content: { 'application/json': { schema: schemas.convert(route.body, 'input') } } };
  }
  const byAccess = Object.entries(route.body as Record<string, z.ZodType>).map(([type, schema]) => [
    type,
    schemas.convert(schema, 'input'),
  ]);
  return {
    required: false,
    description: 'The accepted fields depend on the access type (`x-latchkey-body-by-access`).',
    content: {
      'application/json': {
        schema: byAccess[byAccess.length - 1]![1],
        'x-latchkey-body-by-access': Object.fromEntries(byAccess),
      },
    },
  };
}

function parameters(route: Route, schemas: SchemaSet): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const converted = schemas.convert(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(converted.properties ?? {})) {
      list.push({
        name,
        in: where,
        required: where === 'path' || (converted.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return list;
}

/** Known errors grouped by HTTP status, each group as one OpenAPI response. */
function errorResponses(codes: readonly KnownErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, KnownErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Known errors: ${list.join(', ')}.`,
      headers: { [headers.knownError]: { schema: { type: 'string', enum: list } } },
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/KnownError' }],
            properties: { code: { type: 'string', enum: list } },
          },
        },
      },
    };
  }
  return responses;
}

/** Adds the plain status errors (`text/plain`, wire-protocol §4.2) a route declares to its error responses. */
function withRefusals(responses: Record<string, unknown>, statuses: readonly number[]): Record<string, unknown> {
  const plain = { 'text/plain': { schema: { type: 'string' } } };
  for (const status of new Set(statuses)) {
    const known = responses[String(status)] as { description: string; content: object } | undefined;
    responses[String(status)] = known
      ? {
          ...known,
          description: `${known.description} Or a plain status error.`,
          content: { ...known.content, ...plain },
        }
      : { description: 'A plain status error (text).', content: plain };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** `PATCH /users/:userId` → `patchUsersUserId`: unique, since method and path are. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** `/users/:userId` as OpenAPI writes it: `/users/{userId}`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A message the service sends (a webhook event type): what it is, and the schema of its body. */
export interface OutgoingMessage {
  summary: string;
  body: z.ZodType;
}

/** The headers every webhook message carries (Standard Webhooks). */
const webhookHeaders = [
  ['webhook-id', 'The message id, `msg_…`: the same on every attempt, so a receiver can drop repeats.'],
  ['webhook-timestamp', 'When this attempt was signed, in seconds since the epoch.'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>`, one per secret (two while a rotated secret overlaps).',
  ],
] as const;

/** The `webhooks` section: one POST per message type, signed the Standard Webhooks way. */
function webhookOperations(messages: Record<string, OutgoingMessage>, schemas: SchemaSet): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(messages).map(([type, message]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          summary: message.summary,
          tags: ['webhooks'],
          parameters: webhookHeaders.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemas.convert(message.body, 'output') } },
          },
          responses: {
            '200': { description: 'Any 2xx answer delivers the message; anything else (a redirect too) is retried.' },
          },
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of `routes`, and of the webhook messages the
 * service sends (the `webhooks` section), when given.
 *
 * @example
 * const document = openApiDocument(apiRoutes, { version: '0.1.0' });
 */
export function openApiDocument(
  routes: readonly Route[],
  info: { version: string },
  webhooks: Record<string, OutgoingMessage> = {},
): Record<string, unknown> {
  const schemas = new SchemaSet();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const errors = [...implicitErrors(route), ...route.errors];
    const operation: Record<string, unknown> = {
      operationId: operationId(route),
      summary: route.summary,
      tags: [route.tag],
      'x-latchkey-access': route.access,
      'x-latchkey-user-required': route.user === true,
      'x-latchkey-errors': [...new Set(errors)],
      'x-latchkey-route-errors': [...new Set(route.errors)],
      security: securityOf(route),
      parameters: parameters(route, schemas),
      responses: {
        [String(route.status ?? 200)]: { description: 'Success.', content: answerContent(route.answer, schemas) },
        ...withRefusals(errorResponses(errors), route.refusals ?? []),
      },
    };
    const body = requestBody(route, schemas);
    if (body) operation.requestBody = body;
    paths[openApiPath(route.path)] ??= {};
    paths[openApiPath(route.path)]![route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Latchkey API',
      version: info.version,
      description:
        'The Latchkey service, wire-compatible with the Stack Auth v1 REST API. Errors are known errors: a `code` from the catalogue, a message and `details`, with the code also in the `x-stack-known-error` header.',
    },
    servers: [{ url: '/api/v1' }],
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks: webhookOperations(webhooks, schemas) } : {}),
    components: {
      schemas: {
        KnownError: {
          type: 'object',
          required: ['code', 'error'],
          properties: { code: { type: 'string' }, error: { type: 'string' }, details: { type: 'object' } },
        },
        ...schemas.components,
      },
      securitySchemes: Object.fromEntries(
        Object.entries(credentialSchemes).map(([name, { header, description }]) => [
          name,
          { type: 'apiKey', in: 'header', name: header, description },
        ]),
      ),
    },
  };
}
