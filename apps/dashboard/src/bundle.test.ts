/**
 * The dashboard's first load per page: what a browser fetches before a page
 * shows, read from the build's manifest (the entry, its static imports and
 * their CSS, plus the page's own chunk and its static imports), gzipped. Each
 * must stay within `firstLoadBudget`; the figures are printed on every run.
 * Reads `apps/dashboard/dist`, which `npm test` builds first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** 200 kB gzip, the ceiling for the first load of any page. */
const firstLoadBudget = 200_000;

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestPath = `${dist}.vite/manifest.json`;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

describe.skipIf(!existsSync(manifestPath))('dashboard first load', () => {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
  const gzipped = new Map<string, number>();
  const sizeOf = (file: string) => {
    const known = gzipped.get(file);
    if (known !== undefined) return known;
    const size = gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length;
    gzipped.set(file, size);
    return size;
  };
  /** The files a chunk needs before it runs: itself, its CSS and, recursively, its static imports. */
  const filesOf = (key: string, into = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const css of chunk.css ?? []) into.add(css);
    for (const imported of chunk.imports ?? []) filesOf(imported, into);
    return into;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const pages = Object.keys(manifest).filter((key) => key.startsWith('src/pages/') && manifest[key]!.isDynamicEntry);
  const total = (files: Set<string>) => [...files].reduce((sum, file) => sum + sizeOf(file), 0);

  it('has a page chunk for every page of the route table', () => {
    const routes = readFileSync(fileURLToPath(new URL('./routes.tsx', import.meta.url)), 'utf8');
    const named = [...routes.matchAll(/import\('\.\/(pages\/[^']+)\.js'\)/g)].map((match) => `src/${match[1]}.tsx`);
    expect(named.length).toBeGreaterThan(10);
    expect(pages.sort()).toEqual([...new Set(named)].sort());
  });

  it.each(pages.length ? pages : ['(no build)'])('loads %s within the budget', (page) => {
    const files = filesOf(page, filesOf(entry));
    const bytes = total(files);
    console.log(`[figure] dashboard first load of ${page}: ${bytes} B gzip (${files.size} files)`);
    expect(bytes).toBeLessThanOrEqual(firstLoadBudget);
  });

  it('keeps each page out of the entry: the entry alone is smaller than entry plus any page', () => {
    const alone = total(filesOf(entry));
    console.log(`[figure] dashboard entry (shell, sign-in, SDK): ${alone} B gzip`);
    for (const page of pages) expect(total(filesOf(page, filesOf(entry)))).toBeGreaterThan(alone);
  });
});
