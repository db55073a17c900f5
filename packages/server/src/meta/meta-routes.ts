/**
 * About the API itself: `GET /api/v1`, the API root (text naming the
 * authentication it saw), `POST /check-feature-support` (the SDK reports a
 * feature it found missing; the answer is text it ignores), the OpenAPI
 * document and its reference page, both built from the route declarations.
 */
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { RequestAuth } from '../http/env.js';
import { openApiDocument } from '../http/openapi.js';
import { referencePage, referencePageHeaders } from '../http/reference-page.js';
import { defineRoute, type Route } from '../http/route.js';
import { findUser } from '../users/user-store.js';
import { serviceVersion } from '../version.js';
import { webhookMessages } from '../webhooks/webhook-events.js';

/** The meta routes; `routes` gives every route of the API (these included) when the document is first asked for. */
export function metaRoutes(routes: () => readonly Route[]): Route[] {
  let document: Record<string, unknown> | undefined;
  const currentDocument = () => {
    document ??= openApiDocument(routes(), { version: serviceVersion }, webhookMessages());
    return document;
  };
  let page: string | undefined;

  const apiRoot = defineRoute({
    method: 'GET',
    path: '/',
    tag: 'meta',
    summary:
      'The API root: a text naming the authentication the request carried (none, or its access type, project and user).',
    access: 'optional',
    query: z.strictObject({}),
    answer: 'text',
    errors: [],
    handler: async ({ auth, deps }) =>
      `Welcome to the Latchkey API endpoint! Please refer to the documentation at ${docsUrl}.\n\nAuthentication: ${await authenticationLine(auth, deps)}`,
  });

  const checkFeatureSupport = defineRoute({
    method: 'POST',
    path: '/check-feature-support',
    tag: 'meta',
    summary: 'The SDK reports a feature this service lacks; the answer is text the SDK ignores.',
    access: 'optional',
    body: z.looseObject({ name: z.string().max(1000).optional() }),
    answer: 'text',
    errors: [],
    handler: async () => 'This feature is not supported by this Latchkey service yet.',
  });

  const openApi = defineRoute({
    method: 'GET',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document: every route with its access level, schemas and known errors (OpenAPI 3.1).',
    access: 'none',
    answer: z.looseObject({ openapi: z.literal('3.1.0') }),
    errors: [],
    handler: async () => currentDocument() as { openapi: '3.1.0' },
  });

  const reference = defineRoute({
    method: 'GET',
    path: '/docs',
    tag: 'meta',
    summary: 'The API reference page (HTML), rendered from the OpenAPI document.',
    access: 'none',
    answer: 'text',
    errors: [],
    handler: async () => {
      page ??= referencePage(currentDocument());
      return new Response(page, { headers: referencePageHeaders });
    },
  });

  return [apiRoot, checkFeatureSupport, openApi, reference];
}

/** Where the API root sends readers: the reference page of this service. */
const docsUrl = '/api/v1/docs';

/** `None`, or the access type (capitalised) with the project and the user (e-mail, else id, else `None`) indented below. */
async function authenticationLine(auth: RequestAuth | null, deps: Deps): Promise<string> {
  if (!auth) return 'None';
  const user = auth.userId ? await findUser(deps.db, auth.project.id, auth.userId) : null;
  const userName = user ? (user.primary_email ?? user.id) : 'None';
  const type = auth.accessType[0]!.toUpperCase() + auth.accessType.slice(1);
  return `${type}\n  Project: ${auth.project.id}\n  User: ${userName}`;
}
