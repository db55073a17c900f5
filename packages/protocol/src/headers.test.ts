import { describe, expect, it } from 'vitest';
import { accessTypes, apiBasePath, corsAllowedHeaders, corsExposedHeaders, headers } from './headers.js';
import { backticked, section, tableRows } from './test-support/wire-protocol.js';

const names = Object.values(headers);

/** `x-stack-*` names in the first column of a section's tables. */
function documentedHeaders(heading: string): string[] {
  return tableRows(section(heading))
    .flatMap((cells) => backticked(cells[0] ?? ''))
    .filter((name) => name.startsWith('x-stack-'));
}

/** The value column of a §3 row, as a list. */
function listedIn(header: string): string[] {
  const row = tableRows(section('## 3.')).find((cells) => cells[0] === `\`${header}\``);
  if (!row?.[2]) throw new Error(`wire-protocol.md §3 has no row for ${header}`);
  return (backticked(row[2])[0] ?? '').split(', ');
}

describe('header names', () => {
  it('are lowercase x-stack- names, each once', () => {
    for (const name of names) expect(name).toMatch(/^x-stack-[a-z]+(-[a-z]+)*$/);
    expect(new Set(names).size).toBe(names.length);
  });

  it('cover exactly the request headers of wire-protocol §2 and the response headers of §3', () => {
    const request = documentedHeaders('## 2.');
    const response = documentedHeaders('## 3.');
    expect(request).toHaveLength(11);
    expect([...request, ...response, headers.authJson].sort()).toEqual([...names].sort());
  });

  it('name the auth-forwarding header of wire-protocol §8', () => {
    expect(section('## 8.')).toContain(`header \`${headers.authJson}\``);
  });
});

describe('CORS lists', () => {
  it('allow exactly the headers of wire-protocol §3, in its order', () => {
    expect([...corsAllowedHeaders]).toEqual(listedIn('access-control-allow-headers'));
  });

  it('allow every request header the SDK sends', () => {
    for (const name of documentedHeaders('## 2.')) expect(corsAllowedHeaders).toContain(name);
  });

  it('expose the error headers (decision e), and Retry-After for the SDK in browsers', () => {
    expect([...corsExposedHeaders]).toEqual([...listedIn('access-control-expose-headers'), 'retry-after']);
    expect(corsExposedHeaders).toEqual(expect.arrayContaining([headers.actualStatus, headers.knownError]));
  });
});

describe('access types and base path', () => {
  it('are client, server, admin under /api/v1 (wire-protocol §1, §2)', () => {
    expect(accessTypes).toEqual(['client', 'server', 'admin']);
    expect(section('## 1.')).toContain(`\`<baseUrl>${apiBasePath}<path>\``);
  });
});
