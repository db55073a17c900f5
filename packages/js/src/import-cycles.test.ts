/**
 * The SDK's modules import one another without cycles (type imports count:
 * a cycle of types is still two modules that cannot be read apart). A cycle
 * fails with the modules in it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/** Every source module under `dir` (tests and test support left out), by path. */
function sourceModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceModules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The relative imports and re-exports of each module, resolved to paths. */
function importGraph(modules: string[]): Map<string, string[]> {
  const known = new Set(modules);
  return new Map(
    modules.map((module) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(module, 'utf8'), true, true);
      const targets = importedFiles
        .map((file) => file.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(module), name.replace(/\.js$/, '.ts')))
        .filter((path) => known.has(path));
      return [module, targets];
    }),
  );
}

/** The groups of modules that reach one another (Tarjan's strongly connected components of more than one module). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module) as number);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module) as number, index.get(target) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1) found.push(group.map((path) => relative(srcDir, path)).sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

describe('the modules of @latchkey/js', () => {
  it('import one another without cycles', () => {
    const graph = importGraph(sourceModules(srcDir));
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph)).toEqual([]);
  });

  it('a cycle is found, with its modules', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
    expect(cycles(graph)[0]).toHaveLength(3);
  });
});
