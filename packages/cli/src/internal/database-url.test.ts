import { describe, expect, it } from 'vitest';
import { checkDatabaseUrl, databaseError, redactUrl } from './database-url.js';

const url = 'postgres://app:s%40cret-pw@db.example.com:6543/main';

function failure(code: string, message = 'failed') {
  return Object.assign(new Error(message), { code });
}

describe('checkDatabaseUrl', () => {
  it('accepts postgres:// and postgresql:// URLs', () => {
    expect(checkDatabaseUrl(url)).toBe(url);
    expect(checkDatabaseUrl('postgresql://localhost/db')).toBe('postgresql://localhost/db');
  });

  it('names DATABASE_URL and the problem for text that is no URL, and for another database', () => {
    expect(() => checkDatabaseUrl('not-a-url')).toThrow(/^DATABASE_URL is not a URL: expected postgres:\/\//);
    expect(() => checkDatabaseUrl('mysql://root:pw@localhost/app')).toThrow(
      /^DATABASE_URL is a mysql:\/\/ URL, but Latchkey needs PostgreSQL/,
    );
  });
});

describe('databaseError', () => {
  it.each([
    ['ECONNREFUSED', /nothing accepts connections at db\.example\.com:6543/],
    ['ENOTFOUND', /the host "db\.example\.com" does not resolve/],
    ['ETIMEDOUT', /cannot reach db\.example\.com:6543 \(ETIMEDOUT\)/],
    ['28P01', /refused user "app" \(wrong user name or password/],
    ['3D000', /has no database "main"/],
  ])('turns %s into one line naming DATABASE_URL', (code, message) => {
    const error = databaseError(failure(code), url);
    expect(error.message).toMatch(/^DATABASE_URL: /);
    expect(error.message).toMatch(message);
  });

  it('never prints the password, even when the driver quotes it', () => {
    const error = databaseError(failure('XX000', 'bad option near s@cret-pw'), url);
    expect(error.message).not.toContain('s@cret-pw');
    expect(error.message).not.toContain('s%40cret-pw');
    expect(redactUrl(url)).toBe('postgres://app:***@db.example.com:6543/main');
  });
});
