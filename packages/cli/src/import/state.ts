/**
 * What a run of `latchkey import` has written so far, in a state file beside
 * the input (`<file>.latchkey-import.json`): the input's SHA-256, the project
 * and the last input line whose batch was committed. `--resume` starts after
 * that line when the file and project are the same; the external ids make it
 * safe either way (a record already written is counted as existing).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';

export interface ImportState {
  sha256: string;
  project: string;
  source: string;
  last_line: number;
}

export function statePath(file: string): string {
  return `${file}.latchkey-import.json`;
}

/** The file's SHA-256 and its count of lines, read as a stream. */
export async function fingerprint(file: string): Promise<{ sha256: string; lines: number }> {
  const hash = createHash('sha256');
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines++;
    last = chunk[chunk.length - 1] ?? last;
  }
  return { sha256: hash.digest('hex'), lines: last === 10 ? lines : lines + 1 };
}

/** The saved state, or null when there is none (or it is unreadable). */
export async function readState(file: string): Promise<ImportState | null> {
  try {
    const state = JSON.parse(await readFile(statePath(file), 'utf8')) as ImportState;
    return typeof state.sha256 === 'string' && Number.isSafeInteger(state.last_line) ? state : null;
  } catch {
    return null;
  }
}

export async function writeState(file: string, state: ImportState): Promise<void> {
  await writeFile(statePath(file), `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

export async function removeState(file: string): Promise<void> {
  await rm(statePath(file), { force: true });
}
