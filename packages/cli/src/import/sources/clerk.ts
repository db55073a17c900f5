import type { SourceItem } from '../types.js';

/** Placeholder until the clerk parser lands: refuses the input as a whole. */
export async function* parseClerk(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the clerk source is not implemented yet' };
}
