/**
 * Reads `wire-protocol.md` beside the repository (`../shared`), so protocol
 * tests check our tables against the document. A missing document fails the
 * run: a check that cannot run must not pass.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const documentPath = fileURLToPath(new URL('../../../../../shared/wire-protocol.md', import.meta.url));

/** The whole document; throws when it is missing. */
function wireProtocol(): string {
  try {
    return readFileSync(documentPath, 'utf8');
  } catch (error) {
    throw new Error(`wire-protocol.md is needed beside the repository, at ${documentPath}`, { cause: error });
  }
}

/** The text of the section whose heading starts with `heading` (e.g. `## 2.`), up to the next heading of that level. */
export function section(heading: string): string {
  const text = wireProtocol();
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`wire-protocol.md has no section "${heading}"`);
  const level = heading.split(' ')[0] ?? '##';
  const next = text.indexOf(`\n${level} `, start + heading.length + 1);
  return text.slice(start, next < 0 ? undefined : next);
}

/** The trimmed cells of every row of the Markdown tables in `text` (header rows included, separators not). */
export function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

/** Names quoted in backticks in `text`. */
export function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}
