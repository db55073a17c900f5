/**
 * The modules of every package (protocol, js, react, server, cli) import one
 * another without cycles (type imports count:
 * a cycle of types is still two modules that cannot be read apart). A cycle
 * fails with the modules in it. An `import()` is no edge: it is where code is
 * split off to load on a call (the SDK's passkeys, second factor and e-mail
 * flows), and the chunk it loads names the types and queries of the module
 * that loads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
const packageNames = ['protocol', 'js', 'react', 'server', 'cli'];

/** Every source module under `dir` (tests and test support left out), by path. */
function sourceModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceModules(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** The relative imports and re-exports of each module, resolved to paths. */
function importGraph(modules: string[]): Map<string, string[]> {
  const known = new Set(modules);
  return new Map(
    modules.map((module) => {
      const text = readFileSync(module, 'utf8');
      const { importedFiles } = ts.preProcessFile(text, true, true);
      const targets = importedFiles
        // `pos` is the module name's, quotes included: what precedes it tells an `import(...)` call.
        .filter((file) => !/\bimport\s*\(\s*$/.test(text.slice(Math.max(0, file.pos - 20), file.pos)))
        .map((file) => file.fileName)
        .filter((name) => name.startsWith('.'))
        .flatMap((name) => {
          const base = resolve(dirname(module), name.replace(/\.js$/, ''));
          return [`${base}.ts`, `${base}.tsx`].filter((path) => known.has(path));
        });
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
    if (group.length > 1) found.push(group.map((path) => relative(packagesDir, path)).sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

describe('the modules of every package', () => {
  it('import one another without cycles', () => {
    const graph = importGraph(packageNames.flatMap((name) => sourceModules(join(packagesDir, name, 'src'))));
    expect(graph.size).toBeGreaterThan(300);
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
