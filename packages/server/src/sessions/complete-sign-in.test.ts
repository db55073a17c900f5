/**
 * Every sign-in ends in `completeSignIn`: no other source file issues an
 * access token, so a check added there (a second factor) covers every way in.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = new URL('..', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A call of the access-token issuer, however it is spelled (`deps.accessTokens.issue(`, `accessTokens?.issue (`). */
const issues = /accessTokens\s*\??\.\s*issue\s*\(/;

describe('completeSignIn', () => {
  it('is the only place that issues access tokens', () => {
    const files = sourceFiles(srcDir);
    expect(files.length).toBeGreaterThan(100);
    const issuing = files
      .filter((file) => issues.test(readFileSync(file, 'utf8')))
      .map((file) => relative(srcDir, file));
    expect(issuing).toEqual(['sessions/complete-sign-in.ts']);
  });
});
