import type { SourceItem } from '../types.js';

/** Placeholder until the stack parser lands: refuses the input as a whole. */
export async function* parseStack(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the stack source is not implemented yet' };
}
