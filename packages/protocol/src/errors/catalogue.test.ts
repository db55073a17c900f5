import { describe, expect, it } from 'vitest';
import { section, tableRows } from '../test-support/wire-protocol.js';
import {
  type DetailFieldType,
  errorCatalogue,
  errorFamilies,
  type KnownErrorCode,
  type KnownErrorFamily,
  knownErrorCodes,
} from './catalogue.js';
import { familiesOf, isKnownErrorCode } from './code-index.js';

interface DocumentedRow {
  code: string;
  status: string;
  details: string[];
  parent: string | undefined;
}

/** The rows of wire-protocol §13: code, status ("abstract" for families), details keys, parent. */
function documentedRows(): DocumentedRow[] {
  return tableRows(section('## 13.'))
    .filter(([code]) => code !== 'code')
    .map(([code = '', status = '', details = '', parent = '']) => ({
      code,
      status,
      details: details === '—' ? [] : details.split(', '),
      parent: parent || undefined,
    }));
}

type Row = { status: number; family?: KnownErrorFamily; details?: Record<string, DetailFieldType>; compatible?: false };
const rowOf = (code: KnownErrorCode): Row => errorCatalogue[code];
const fieldTypes: DetailFieldType[] = ['string', 'number', 'string[]', 'json', 'null', 'string?', 'number?'];

describe('the known-error catalogue', () => {
  it('has a row for every code of wire-protocol §13 with its status, details keys and parent', () => {
    const documented = documentedRows();
    expect(documented).toHaveLength(89);
    for (const row of documented.filter((r) => r.status !== 'abstract')) {
      expect(isKnownErrorCode(row.code), row.code).toBe(true);
      const ours = rowOf(row.code as KnownErrorCode);
      expect(ours.status, row.code).toBe(Number(row.status));
      expect(Object.keys(ours.details ?? {}).sort(), row.code).toEqual([...row.details].sort());
      expect(ours.family, row.code).toBe(row.parent);
    }
  });

  it('has a family for every abstract row, with the documented parent', () => {
    const abstract = documentedRows().filter((r) => r.status === 'abstract');
    expect(Object.keys(errorFamilies).sort()).toEqual(abstract.map((r) => r.code).sort());
    for (const row of abstract) expect(errorFamilies[row.code as KnownErrorFamily] ?? undefined).toBe(row.parent);
  });

  it('adds only codes of routes the 2.7 SDK never calls, each marked as unknown to it', () => {
    const documented = new Set(documentedRows().map((r) => r.code));
    const extra = knownErrorCodes.filter((code) => !documented.has(code));
    expect(extra).toEqual([
      'ORIGIN_NOT_TRUSTED',
      'PROJECT_LIMIT_REACHED',
      'PASSKEY_NOT_FOUND',
      'TEAM_ALREADY_EXISTS',
      'SESSION_NOT_FOUND',
      'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED',
      'WEBHOOK_ENDPOINT_NOT_FOUND',
      'WEBHOOK_MESSAGE_NOT_FOUND',
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
    ]);
    expect(knownErrorCodes.filter((code) => rowOf(code).compatible === false)).toEqual(extra);
  });

  it('gives every code an HTTP error status', () => {
    for (const code of knownErrorCodes) {
      expect(Number.isInteger(rowOf(code).status) && rowOf(code).status >= 400 && rowOf(code).status <= 599, code).toBe(
        true,
      );
    }
  });

  it('spells codes in upper snake case and never as a family name', () => {
    for (const code of knownErrorCodes) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(Object.hasOwn(errorFamilies, code), code).toBe(false);
    }
    expect(isKnownErrorCode('INVALID_ACCESS_TOKEN')).toBe(false);
    expect(isKnownErrorCode('toString')).toBe(false);
  });

  it('types every details field with a known field type', () => {
    for (const code of knownErrorCodes) {
      for (const type of Object.values(rowOf(code).details ?? {})) expect(fieldTypes, code).toContain(type);
    }
  });

  it('chains families to a root without cycles, nearest first', () => {
    for (const family of Object.keys(errorFamilies) as KnownErrorFamily[]) {
      const seen = new Set<string>();
      for (let f: KnownErrorFamily | null = family; f; f = errorFamilies[f]) {
        expect(seen.has(f), family).toBe(false);
        seen.add(f);
      }
    }
    expect(familiesOf('ACCESS_TOKEN_EXPIRED')).toEqual([
      'INVALID_ACCESS_TOKEN',
      'INVALID_SESSION_AUTHENTICATION',
      'SESSION_AUTHENTICATION_ERROR',
    ]);
    expect(familiesOf('USER_NOT_FOUND')).toEqual([]);
  });
});
