import type { SourceItem } from '../types.js';

/** Placeholder until the supabase parser lands: refuses the input as a whole. */
export async function* parseSupabase(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the supabase source is not implemented yet' };
}
