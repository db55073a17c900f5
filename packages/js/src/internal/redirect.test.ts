import { clientMessages } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { trustedRedirectPath, withQueryParam } from './redirect.js';

const origin = 'https://app.example.com';

describe('redirect validation', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/a/b?x=1#top', '/a/b?x=1#top'],
    ['relative/page', '/relative/page'],
    ['https://app.example.com/settings', '/settings'],
    ['HTTPS://APP.EXAMPLE.COM/x', '/x'],
    ['https://app.example.com//evil.com', '/evil.com'],
    ['?tab=2', '/?tab=2'],
    // Same scheme without slashes is a relative path for the URL parser (and for browsers).
    ['https:evil.com', '/evil.com'],
    // Percent-encoded slashes stay encoded: a path on this origin, never `//host`.
    ['%2F%2Fevil.com', '/%2F%2Fevil.com'],
    ['/%5Cevil.com', '/%5Cevil.com'],
    ['  /padded  ', '/padded'],
  ])('accepts %s as %s', (target, path) => {
    expect(trustedRedirectPath(target, origin)).toBe(path);
  });

  it.each([
    'https://evil.com/phish',
    'http://app.example.com/downgraded',
    'https://app.example.com.evil.com/',
    'https://app.example.com:8443/',
    '//evil.com',
    '//evil.com/path',
    '/\\evil.com',
    '\\/evil.com',
    '\\\\evil.com',
    '/\\/evil.com',
    '\t//evil.com',
    '\n//evil.com',
    '/\t/evil.com',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    '\tjavascript:alert(1)',
    '\njavascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u001fjavascript:alert(1)',
    'java\tscr\nipt:alert(1)',
    'javascript://app.example.com/%0aalert(1)',
    'vbscript:msgbox(1)',
    'data:,hello',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http:evil.com',
  ])('refuses %s', (target) => {
    expect(() => trustedRedirectPath(target, origin)).toThrow(/Refusing to redirect/);
  });

  it('refuses with a REDIRECT_URL_NOT_WHITELISTED known error', () => {
    try {
      trustedRedirectPath('https://evil.com', origin);
    } catch (error) {
      expect(error).toMatchObject({ name: 'KnownError', code: 'REDIRECT_URL_NOT_WHITELISTED' });
    }
    expect.assertions(1);
  });

  it('outside a browser accepts relative targets only', () => {
    expect(trustedRedirectPath('/x')).toBe('/x');
    expect(() => trustedRedirectPath('https://app.example.com/x')).toThrow();
  });

  it('adds a query parameter, keeping the target relative', () => {
    expect(withQueryParam('/handler/sign-in', 'after_auth_return_to', '/a?b=1#c', origin)).toBe(
      '/handler/sign-in?after_auth_return_to=%2Fa%3Fb%3D1%23c',
    );
  });
});

describe('the refusal', () => {
  it('is REDIRECT_URL_NOT_WHITELISTED worded as clientMessages.redirectNotTrusted', () => {
    const target = 'https://evil.example/';
    expect(() => trustedRedirectPath(target, 'https://app.example')).toThrow(
      expect.objectContaining({
        code: 'REDIRECT_URL_NOT_WHITELISTED',
        message: clientMessages.redirectNotTrusted(target),
      }),
    );
  });
});
