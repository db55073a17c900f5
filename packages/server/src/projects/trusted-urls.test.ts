import { describe, expect, it } from 'vitest';
import { isLocalhostName, isTrustedUrl } from './trusted-urls.js';

const domains = [
  { domain: 'https://app.example.com', handler_path: '/handler' },
  { domain: 'http://staging.example.com:8080', handler_path: '/auth' },
];

describe('isTrustedUrl', () => {
  it.each([
    ['https://app.example.com/handler/email-verification', true],
    ['https://app.example.com/anything?x=1#y', true],
    ['http://staging.example.com:8080/auth/x', true],
    ['http://app.example.com/handler', false],
    ['https://app.example.com:444/handler', false],
    ['https://evil.example.com/handler', false],
    ['https://app.example.com.evil.net/handler', false],
    ['https://user@evil.net/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
    ['http://localhost:3000/handler', true],
    ['http://127.0.0.1:3000/x', true],
    ['http://foo.localhost/x', true],
    ['http://[::1]:3000/x', true],
    ['http://localhost.evil.net/x', false],
  ])('%s → %s (localhost allowed)', (url, trusted) => {
    expect(isTrustedUrl(url, { allow_localhost: true, domains })).toBe(trusted);
  });

  it('refuses localhost when allow_localhost is off', () => {
    expect(isTrustedUrl('http://localhost:3000/handler', { allow_localhost: false, domains })).toBe(false);
    expect(isTrustedUrl('https://app.example.com/handler', { allow_localhost: false, domains })).toBe(true);
  });

  it('ignores malformed trusted domains', () => {
    expect(
      isTrustedUrl('https://x.example.com/', { allow_localhost: false, domains: [{ domain: 'x', handler_path: '/' }] }),
    ).toBe(false);
  });
});

describe('isLocalhostName', () => {
  it.each([
    ['localhost', true],
    ['a.b.localhost', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['localhost.com', false],
  ])('%s → %s', (name, expected) => {
    expect(isLocalhostName(name)).toBe(expected);
  });
});
