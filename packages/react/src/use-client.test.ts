// @vitest-environment node
/**
 * The modules `index.ts` exports from are the entry points a React Server
 * Component (Next.js) imports: each that calls a hook or makes a context must
 * start with `'use client'`, or a server component importing it fails to build
 * ("You're importing a component that needs useEffect"). Modules they import
 * are client modules through them and need no directive.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));
const index = readFileSync(`${srcDir}index.ts`, 'utf8');
const exported = [...new Set([...index.matchAll(/from '\.\/([^']+)\.js'/g)].map((match) => match[1]!))];

function source(module: string): string {
  const path = [`${srcDir}${module}.tsx`, `${srcDir}${module}.ts`].find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`index.ts exports from ${module}, which has no source`);
  return readFileSync(path, 'utf8');
}

/** Whether the module's first statement (after its comments) is the `'use client'` directive. */
function startsWithDirective(text: string): boolean {
  const code = text.replace(/^(\s+|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '');
  return code.startsWith("'use client';");
}

describe("'use client' on the modules index.ts exports from", () => {
  it('finds the entry modules', () => {
    expect(exported.length).toBeGreaterThan(15);
  });

  it.each(exported)('%s: starts with the directive if it calls a hook or makes a context', (module) => {
    const text = source(module);
    const needsClient = /\buse[A-Z]\w*\(|\bcreateContext\(/.test(text);
    if (needsClient) expect(startsWithDirective(text), `${module} uses hooks`).toBe(true);
  });
});
