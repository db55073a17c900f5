/**
 * The generic `latchkey-users` format (JSON Lines, one record a line, `type`
 * first) as TypeScript: what `latchkey export` writes, what `latchkey import
 * --from latchkey` reads, and what every other source's parser converts into.
 * See docs/guides/import-export.md.
 */

import type { ImportRecord as Record_ } from '@latchkey/server';
import type { SourceOptions } from './sources/options.js';

/** One record of the generic format (defined once, by the engine that writes it: `@latchkey/server`). */
export type ImportRecord = Record_;
export type ImportPermission = Extract<ImportRecord, { type: 'permission' }>;
export type ImportTeam = Extract<ImportRecord, { type: 'team' }>;
export type ImportUser = Extract<ImportRecord, { type: 'user' }>;
export type ImportEmail = ImportUser['emails'][number];
export type ImportOAuthAccount = ImportUser['oauth'][number];
export type ImportMembership = ImportUser['teams'][number];

/** A part of the input a parser could not read: reported with its place, skipped. */
export interface ImportProblem {
  /** 1-based line of the input (or row of a CSV, record of a JSON array). */
  line: number;
  problem: string;
}

/**
 * What a source's parser yields, in input order. A record may say where it
 * came from with `sourceLine` (see `withLine`) so a later refusal (duplicate
 * e-mail...) names that line; without it the report counts records.
 */
export type SourceItem = ImportRecord | ImportProblem;

/**
 * A source's parser: the whole export file as text in, records and problems
 * out; `options` holds the side files some sources read (`--identities`...).
 */
export type SourceParser = (text: string, options?: SourceOptions) => AsyncIterable<SourceItem>;

const lines = new WeakMap<ImportRecord, number>();

/** Tags a record with the input line (or row) it came from, for the report. */
export function withLine<T extends ImportRecord>(record: T, line: number): T {
  lines.set(record, line);
  return record;
}

/** The input line a parser tagged the record with, if any. */
export function lineOf(record: ImportRecord): number | undefined {
  return lines.get(record);
}

export function isProblem(item: SourceItem): item is ImportProblem {
  return 'problem' in item;
}
