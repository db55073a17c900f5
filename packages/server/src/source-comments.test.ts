/**
 * Source says what the code does and why, not which tracker entry asked for
 * it: a comment naming "issue 12" or "#203" tells a reader nothing without the
 * tracker, and the number outlives its meaning. This walks the source of every
 * workspace (not only this package's) and names each line that cites one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** This file, whose examples cite on purpose. */
const self = fileURLToPath(import.meta.url);
const sourceDirs = ['packages', 'apps', 'e2e', 'bench', 'compat', 'scripts', 'docs'];
const sourceExtensions = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.css']);
const skippedDirs = new Set(['node_modules', 'dist', 'results', '.vite']);

/** "issue 12", "Issues 4 and 5", "issue #12", "PR 7", "pull request #7". */
const trackerWords = /\b(?:issues?|PR|pull request) #?\d+/i;
/** A bare "#12" after a space or a parenthesis (not "user#1"); CSS colours such as `#166534` are not references. */
const bareNumber = /(?:^|[\s(])#\d+\b/;

function citesTracker(line: string, extension: string): boolean {
  return trackerWords.test(line) || (extension !== '.css' && bareNumber.test(line));
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name) && !entry.name.startsWith('.')) yield* sourceFiles(join(dir, entry.name));
    } else if (sourceExtensions.has(extname(entry.name))) {
      yield join(dir, entry.name);
    }
  }
}

describe('source comments', () => {
  it('recognise a tracker reference, and leave values and colours alone', () => {
    for (const line of ['// (issue 11)', ' * Issues 4 and 5', '// see #203', '(PR #7)', '// pull request 12']) {
      expect(citesTracker(line, '.ts'), line).toBe(true);
    }
    for (const line of ["expect(x).toBe('user#1');", 'color: light-dark(#166534, #86e0a9);', '// STYLE.md item 11']) {
      expect(citesTracker(line, line.startsWith('color') ? '.css' : '.ts'), line).toBe(false);
    }
  });

  it('name no issue or pull request numbers in any workspace', () => {
    const cited: string[] = [];
    let files = 0;
    for (const dir of sourceDirs) {
      for (const file of sourceFiles(join(root, dir))) {
        files++;
        if (file === self) continue;
        const extension = extname(file);
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (citesTracker(line, extension)) cited.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(files).toBeGreaterThan(300);
    expect(cited).toEqual([]);
  });
});
