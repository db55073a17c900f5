/**
 * Validation against zod schemas, shared by the HTTP layer and the domain:
 * a value of the wrong shape is the known error SCHEMA_ERROR, with one
 * readable line per problem and nothing of the value echoed back.
 */
import { KnownError } from '@latchkey/protocol';
import type { z } from 'zod';

/** One readable line per zod issue, e.g. `body.email: Invalid email address`. */
export function describeIssues(error: z.ZodError, root = 'body'): string {
  return error.issues.map((issue) => `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`).join('; ');
}

/**
 * Validates `value` against `schema`, throwing SCHEMA_ERROR on mismatch.
 * `root` names the value in the message (`body`, `query`, `params`, `config`).
 *
 * @example
 * const changes = validate(projectConfigPatchSchema, patch, 'config');
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, root = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new KnownError('SCHEMA_ERROR', { message: describeIssues(result.error, root) });
  return result.data;
}
