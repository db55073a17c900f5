// @vitest-environment node
/**
 * `styles.css` is the concatenation of `styles/*.css` (see
 * `scripts/build-styles.mjs`); these checks keep it so, and keep every
 * `lk-` class the components render styled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildStylesheet, styleParts, stylesheetPath } from '../scripts/build-styles.mjs';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx'))
    .map((entry) => `${entry.parentPath}/${entry.name}`);
}

describe('styles.css', () => {
  it('is up to date with styles/*.css (run `node packages/react/scripts/build-styles.mjs`)', () => {
    expect(readFileSync(stylesheetPath, 'utf8')).toBe(buildStylesheet());
  });

  it('includes every part, tokens first', () => {
    const parts = readdirSync(`${srcDir}/styles`).map((name) => name.replace(/\.css$/, ''));
    expect([...styleParts].sort()).toEqual(parts.sort());
    expect(styleParts[0]).toBe('tokens');
  });

  it('styles every lk- class the components render', () => {
    const stylesheet = readFileSync(stylesheetPath, 'utf8');
    const defined = new Set(stylesheet.match(/\.lk-[a-z0-9-]+/g)?.map((name) => name.slice(1)));
    const used = new Set(
      sourceFiles(srcDir).flatMap((file) => readFileSync(file, 'utf8').match(/\blk-[a-z0-9-]+/g) ?? []),
    );
    used.delete('lk-theme'); // the data-lk-theme attribute, not a class
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });
});
