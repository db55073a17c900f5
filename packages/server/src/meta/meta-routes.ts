/**
 * About the API itself: `POST /check-feature-support` (the SDK reports a
 * feature it found missing; the answer is text it ignores), the OpenAPI
 * document and its reference page, both built from the route declarations.
 */
import { z } from 'zod';
import { openApiDocument } from '../http/openapi.js';
import { referencePage, referencePageHeaders } from '../http/reference-page.js';
import { defineRoute, type Route } from '../http/route.js';
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

  const checkFeatureSupport = defineRoute({
    method: 'POST',
    path: '/check-feature-support',
    tag: 'meta',
    summary: 'The SDK reports a feature this service lacks; the answer is text the SDK ignores.',
    access: 'client',
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

  return [checkFeatureSupport, openApi, reference];
}
