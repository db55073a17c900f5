import type { SourceItem } from '../types.js';

/** Placeholder until the better-auth parser lands: refuses the input as a whole. */
export async function* parseBetterAuth(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the better-auth source is not implemented yet' };
}
