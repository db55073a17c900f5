import type { SourceItem } from '../types.js';

/** Placeholder until the firebase parser lands: refuses the input as a whole. */
export async function* parseFirebase(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the firebase source is not implemented yet' };
}
