import type { SourceItem } from '../types.js';

/** Placeholder until the auth0 parser lands: refuses the input as a whole. */
export async function* parseAuth0(_text: string): AsyncIterable<SourceItem> {
  yield { line: 0, problem: 'the auth0 source is not implemented yet' };
}
