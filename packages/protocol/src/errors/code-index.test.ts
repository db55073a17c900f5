import { describe, expect, it } from 'vitest';
import { errorCatalogue } from './catalogue.js';
import { codeIndexText, codeTraits, familiesOf, isKnownErrorCode } from './code-index.js';

/**
 * The index text as the catalogue gives it: a header per status, family and
 * null-defaulted details (in catalogue order), then the codes that share them, sorted.
 */
function derivedIndexText(): string {
  const groups = new Map<string, string[]>();
  for (const [code, row] of Object.entries(errorCatalogue)) {
    const header: string[] = [String(row.status)];
    if ('family' in row) header.push(row.family);
    if ('details' in row) {
      const nulls = Object.entries(row.details).filter(([, type]) => type === 'null');
      header.push(`{${nulls.map(([field]) => field).join(',')}}`);
    }
    const key = `${header.join(' ')}:`;
    groups.set(key, [...(groups.get(key) ?? []), code]);
  }
  const lines = [...groups].flatMap(([header, codes]) => [header, ...codes.sort()]);
  return `\n${lines.join('\n')}\n`;
}

describe('the code index', () => {
  it('is the catalogue, grouped (paste the expected text when a code is added)', () => {
    expect(codeIndexText).toBe(derivedIndexText());
  });

  it('gives each code its status, family and null-defaulted details', () => {
    expect(codeTraits('USER_EMAIL_ALREADY_EXISTS')).toEqual({ status: 409 });
    expect(codeTraits('PASSWORD_TOO_SHORT')).toEqual({
      status: 400,
      family: 'PASSWORD_REQUIREMENTS_NOT_MET',
      nullDetails: [],
    });
    expect(codeTraits('ACCESS_TOKEN_EXPIRED')).toEqual({
      status: 401,
      family: 'INVALID_ACCESS_TOKEN',
      nullDetails: ['expired_at_millis'],
    });
    expect(codeTraits('UNSUPPORTED_ERROR')).toEqual({ status: 500, nullDetails: [] });
    expect(familiesOf('INVALID_PUBLISHABLE_CLIENT_KEY')).toEqual([
      'INVALID_PROJECT_AUTHENTICATION',
      'PROJECT_AUTHENTICATION_ERROR',
    ]);
  });

  it('knows exactly the catalogue’s codes', () => {
    for (const code of Object.keys(errorCatalogue)) expect(isKnownErrorCode(code), code).toBe(true);
    for (const other of ['', 'PASSWORD_REQUIREMENTS_NOT_MET', 'constructor', '400', '{}', 'USER_NOT_FOUND 404']) {
      expect(isKnownErrorCode(other), other).toBe(false);
    }
  });
});
