/**
 * The labels table with every entry replaced by a marker (`⟦key⟧`, or
 * `⟦key:values⟧` for the entries that embed values): rendered with it, a
 * component shows which labels it used, and any other word is a leftover.
 */
import { englishLabels, type LatchkeyLabels } from '../labels.js';

export const pseudoLabels = Object.fromEntries(
  Object.entries(englishLabels).map(([key, value]) => [
    key,
    typeof value === 'function' ? (values: object) => `⟦${key}:${Object.values(values).join(',')}⟧` : `⟦${key}⟧`,
  ]),
) as unknown as LatchkeyLabels;
