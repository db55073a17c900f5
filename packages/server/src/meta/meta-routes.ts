/** `POST /check-feature-support`: the SDK reports a feature it found missing; the answer is text it ignores. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { requireAccess } from '../access/request-auth.js';
import { readJson } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { textResponse } from '../http/responses.js';

const featureBody = z.looseObject({ name: z.string().max(1000).optional() });

export function registerMiscRoutes(api: Hono<AppEnv>, deps: Deps): void {
  api.post('/check-feature-support', requireAccess(deps, 'client'), async (c) => {
    await readJson(c.req.raw, featureBody, deps.bodyLimitBytes);
    return textResponse(200, 'This feature is not supported by this Latchkey service yet.');
  });
}
