/**
 * Health for load balancers and orchestrators, no project needed:
 * `GET /health` answers while the process serves requests; `GET /health/ready`
 * answers 200 only when the database answers, its migrations match this
 * code and the master secret opens the stored signing keys, else 503 naming
 * the checks that failed. Neither answer carries a secret or a connection string.
 */
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { jsonResponse } from '../http/responses.js';
import { defineRoute } from '../http/route.js';
import { migrationStatus } from '../storage/migrate.js';

/** How long each readiness check may take before it counts as failed. */
const checkTimeoutMs = 2_000;

const checksSchema = z.object({
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['ok', 'pending', 'unknown', 'not_checked']),
  secret: z.enum(['ok', 'no_keys_yet', 'mismatch', 'not_checked']),
});

type Checks = z.infer<typeof checksSchema>;

const readySchema = z.object({ status: z.literal('ready'), checks: checksSchema });

const live = defineRoute({
  method: 'GET',
  path: '/health',
  tag: 'health',
  summary: 'Answers 200 {"status":"ok"} while the process serves requests (liveness).',
  access: 'none',
  answer: z.object({ status: z.literal('ok') }),
  errors: [],
  handler: async () => ({ status: 'ok' as const }),
});

const ready = defineRoute({
  method: 'GET',
  path: '/health/ready',
  tag: 'health',
  summary:
    'Answers 200 when the database answers, its migrations are current and the master secret opens the stored signing keys; 503 {"status":"not_ready","failed":[...]} otherwise.',
  access: 'none',
  answer: readySchema,
  errors: [],
  handler: async ({ deps }) => {
    const checks = await runChecks(deps);
    const failed = (Object.keys(checks) as Array<keyof Checks>).filter((name) => failedCheck(checks[name]));
    if (failed.length === 0) return { status: 'ready' as const, checks };
    const answer = jsonResponse({ status: 'not_ready', failed, checks }, 503);
    answer.headers.set('cache-control', 'no-store');
    return answer;
  },
});

/** A check that ran and failed (one left unchecked behind a failed one is not named). */
function failedCheck(result: Checks[keyof Checks]): boolean {
  return result !== 'ok' && result !== 'no_keys_yet' && result !== 'not_checked';
}

/** The three checks in order; a database that does not answer leaves the others unchecked. */
async function runChecks(deps: Deps): Promise<Checks> {
  let status: Awaited<ReturnType<typeof migrationStatus>>;
  try {
    status = await withTimeout(migrationStatus(deps.db));
  } catch {
    return { database: 'unreachable', migrations: 'not_checked', secret: 'not_checked' };
  }
  const migrations = status.unknown.length > 0 ? 'unknown' : status.pending.length > 0 ? 'pending' : 'ok';
  let secret: Checks['secret'];
  try {
    const opened = await withTimeout(deps.signingKeys.checkSecret());
    secret = opened === 'opened' ? 'ok' : opened === 'no_keys' ? 'no_keys_yet' : 'mismatch';
  } catch {
    return { database: 'unreachable', migrations, secret: 'not_checked' };
  }
  return { database: 'ok', migrations, secret };
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), checkTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The health routes. */
export const healthRoutes = [live, ready];
