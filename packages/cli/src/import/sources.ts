/**
 * The sources `latchkey import --from <name>` reads: each a parser from the
 * source's documented export format into the generic records (`types.ts`).
 * A parser lives in `sources/<name>.ts` and exports a `SourceParser`.
 */
import { parseAuth0 } from './sources/auth0.js';
import { parseBetterAuth } from './sources/better-auth.js';
import { parseClerk } from './sources/clerk.js';
import { parseFirebase } from './sources/firebase.js';
import { parseLatchkey } from './sources/latchkey.js';
import { parseStack } from './sources/stack.js';
import { parseSupabase } from './sources/supabase.js';
import type { SourceParser } from './types.js';

export const sources: Readonly<Record<string, SourceParser>> = {
  latchkey: parseLatchkey,
  clerk: parseClerk,
  auth0: parseAuth0,
  supabase: parseSupabase,
  firebase: parseFirebase,
  'better-auth': parseBetterAuth,
  stack: parseStack,
};

/** The parser for `--from <name>`, or undefined for a name no source has. */
export function sourceNamed(name: string): SourceParser | undefined {
  return Object.hasOwn(sources, name) ? sources[name] : undefined;
}
