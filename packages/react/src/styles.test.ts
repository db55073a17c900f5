// @vitest-environment node
/**
 * The stylesheet is built from `styles/*.css` (see
 * `scripts/build-styles.mjs`): the source entry imports every part in
 * cascade order, the built file holds every rule once, and every `lk-` class
 * the components render is styled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildStylesheet, sourceStylesheet, sourceStylesheetPath, styleParts } from '../scripts/build-styles.mjs';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx'))
    .map((entry) => `${entry.parentPath}/${entry.name}`);
}

describe('styles.css', () => {
  it('imports every part in cascade order, and the build concatenates the same parts', () => {
    expect(readFileSync(sourceStylesheetPath, 'utf8')).toBe(sourceStylesheet());
    const built = buildStylesheet();
    for (const name of styleParts) {
      expect(built).toContain(readFileSync(`${srcDir}/styles/${name}.css`, 'utf8').trimEnd());
    }
    expect(built).not.toContain('@import');
  });

  it('includes every part, tokens first', () => {
    const parts = readdirSync(`${srcDir}/styles`).map((name) => name.replace(/\.css$/, ''));
    expect([...styleParts].sort()).toEqual(parts.sort());
    expect(styleParts[0]).toBe('tokens');
  });

  it('styles every lk- class the components render', () => {
    const stylesheet = buildStylesheet();
    const defined = new Set(stylesheet.match(/\.lk-[a-z0-9-]+/g)?.map((name) => name.slice(1)));
    const used = new Set(
      sourceFiles(srcDir).flatMap((file) => readFileSync(file, 'utf8').match(/\blk-[a-z0-9-]+/g) ?? []),
    );
    used.delete('lk-theme'); // the data-lk-theme attribute, not a class
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });
});
