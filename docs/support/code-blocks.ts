/**
 * Finds the fenced code blocks of the Markdown pages the docs test checks,
 * with the hidden comment that may precede each (docs/README.md, "Code
 * samples"): `<!-- prelude: ... -->` (code the block needs but does not
 * show), `<!-- run -->` (an `sh` block the test runs) or `<!-- file: NAME -->`
 * (a whole program the reader saves as NAME, which a test may run).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** A fenced block of a page. */
export interface CodeBlock {
  /** Path from the repository root, e.g. `docs/concepts.md`. */
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  /** The fence's language (`ts`, `tsx`, `sh`, `json`, `text`...); `''` when the fence names none. */
  lang: string;
  code: string;
  /** Hidden code from a `<!-- prelude: ... -->` comment right above the fence. */
  prelude: string | null;
  /** 1-based line where the prelude comment starts. */
  preludeLine: number;
  /** True when a `<!-- run -->` comment sits right above the fence. */
  run: boolean;
  /** The file name of a `<!-- file: NAME -->` comment right above the fence: the reader saves the block as it. */
  saveAs: string | null;
}

/**
 * Pages whose blocks are excerpts of internal code, not samples of the public
 * API: `docs/architecture.md` (the contributors' page) quotes `src/` files.
 */
const excludedPages = new Set(['docs/architecture.md']);

/** README.md and every `docs/**\/*.md` except the excluded pages, sorted. */
export function documentationPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(relative(root, path));
    }
  };
  walk(join(root, 'docs'));
  return pages.filter((page) => !excludedPages.has(page)).sort();
}

/** The fenced blocks of one page. Indented fences (inside list items) lose their indentation. */
export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)/.exec(lines[index]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
    if (end === lines.length) throw new Error(`${file}:${index + 1}: a code fence is never closed`);
    const code = lines
      .slice(start, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    blocks.push({ file, line: start + 1, lang, code, ...hiddenComment(lines, index) });
    index = end;
  }
  return blocks;
}

/** The `<!-- ... -->` comment ending on the line right above the fence at `fenceIndex`, read as a directive. */
function hiddenComment(
  lines: string[],
  fenceIndex: number,
): Pick<CodeBlock, 'prelude' | 'preludeLine' | 'run' | 'saveAs'> {
  const none = { prelude: null, preludeLine: 0, run: false, saveAs: null };
  const above = fenceIndex - 1;
  if (above < 0 || !lines[above]!.trimEnd().endsWith('-->')) return none;
  let first = above;
  while (first >= 0 && !lines[first]!.includes('<!--')) first--;
  if (first < 0) return none;
  const text = lines
    .slice(first, above + 1)
    .join('\n')
    .replace(/^\s*<!--/, '')
    .replace(/-->\s*$/, '')
    .trim();
  if (text === 'run') return { ...none, run: true };
  const saveAs = /^file:\s*(\S+)$/.exec(text);
  if (saveAs) return { ...none, saveAs: saveAs[1]! };
  const prelude = /^prelude:\s*([\s\S]*)$/.exec(text);
  return prelude ? { ...none, prelude: prelude[1]!, preludeLine: first + 1 } : none;
}

/**
 * Relative links of a page (`[text](path#anchor)`, outside code) whose file
 * does not exist, or whose anchor names no heading of the Markdown file (as
 * GitHub makes anchors from headings). Returns `file:line: link` for each.
 */
export function brokenLinks(root: string, file: string): string[] {
  const broken: string[] = [];
  proseLines(root, file).forEach(({ text, line }) => {
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const linked = path === '' ? file : normalize(join(dirname(file), path));
      const ok = existsSync(join(root, linked)) && (!anchor || headingAnchors(root, linked).has(anchor));
      if (!ok) broken.push(`${file}:${line}: ${target}`);
    }
  });
  return broken;
}

/** The anchors GitHub gives the headings of a Markdown file. */
function headingAnchors(root: string, file: string): Set<string> {
  const anchors = new Set<string>();
  if (!file.endsWith('.md')) return anchors;
  for (const { text } of proseLines(root, file)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(text);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    anchors.add(slug);
  }
  return anchors;
}

/** The lines of a page outside fenced code, with their 1-based numbers. */
function proseLines(root: string, file: string): { text: string; line: number }[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const prose: { text: string; line: number }[] = [];
  let fence: string | null = null;
  lines.forEach((text, index) => {
    const marker = /^\s*(`{3,})/.exec(text)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    else if (fence === null) prose.push({ text, line: index + 1 });
  });
  return prose;
}
