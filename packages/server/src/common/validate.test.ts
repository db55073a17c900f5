import { isKnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, validate } from './validate.js';

describe('describeIssues', () => {
  it('writes one readable clause per issue, rooted at body', () => {
    const result = z.strictObject({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ b: { c: 'x' }, d: 1 });
    expect(result.success).toBe(false);
    const text = describeIssues(result.error!);
    expect(text).toContain('body.a:');
    expect(text).toContain('body.b.c:');
    expect(text).toContain('body: Unrecognized key: "d"');
  });
});

describe('validate', () => {
  const schema = z.strictObject({ limit: z.coerce.number().int().max(10) });

  it('returns the parsed value', () => {
    expect(validate(schema, { limit: '3' }, 'query')).toEqual({ limit: 3 });
  });

  it('throws SCHEMA_ERROR naming the root and never echoing the value', () => {
    let caught: unknown;
    try {
      validate(schema, { limit: 'secret-value-123' }, 'query');
    } catch (error) {
      caught = error;
    }
    expect(isKnownError(caught, 'SCHEMA_ERROR')).toBe(true);
    const message = String((caught as { details: { message: string } }).details.message);
    expect(message).toMatch(/^query\.limit: /);
    expect(message).not.toContain('secret-value-123');
  });
});
