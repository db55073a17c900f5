import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';
import { checkProxyHeader, checkProxyHops, checkPublicUrl, checkRedisUrl, checkSmtpUrl } from './smtp-url.js';

describe('checkSmtpUrl', () => {
  it('passes SMTP URLs through and treats unset or empty as none', () => {
    expect(checkSmtpUrl('smtp://user:pass@mail.example.com:587')).toBe('smtp://user:pass@mail.example.com:587');
    expect(checkSmtpUrl('smtps://mail.example.com:465')).toBe('smtps://mail.example.com:465');
    expect(checkSmtpUrl(undefined)).toBeUndefined();
    expect(checkSmtpUrl('')).toBeUndefined();
  });

  it('refuses what is not an SMTP URL with one line naming the variable, never the password', () => {
    for (const value of ['mail.example.com:587', 'https://user:hunter22@mail.example.com', 'smtp://']) {
      let error: unknown;
      try {
        checkSmtpUrl(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(CliError);
      expect((error as Error).message).toMatch(/^LATCHKEY_SMTP_URL /);
      expect((error as Error).message).not.toContain('hunter22');
    }
  });
});

describe('checkPublicUrl', () => {
  it('keeps the origin of an http(s) URL and treats unset or empty as none', () => {
    expect(checkPublicUrl('https://auth.example.com/some/path')).toBe('https://auth.example.com');
    expect(checkPublicUrl(undefined)).toBeUndefined();
    expect(checkPublicUrl('')).toBeUndefined();
  });

  it('refuses what is not an http(s) URL with one line naming the variable', () => {
    for (const value of ['auth.example.com', 'ftp://auth.example.com']) {
      expect(() => checkPublicUrl(value), value).toThrow(/^LATCHKEY_PUBLIC_URL /);
    }
  });
});

describe('checkProxyHeader', () => {
  it('lower-cases a header name and treats unset or empty as none', () => {
    expect(checkProxyHeader('X-Forwarded-For')).toBe('x-forwarded-for');
    expect(checkProxyHeader(undefined)).toBeUndefined();
    expect(checkProxyHeader('')).toBeUndefined();
  });

  it('refuses what cannot be a header name, naming the variable', () => {
    for (const value of ['x forwarded', 'x-forwarded-for: 1.2.3.4', 'é']) {
      expect(() => checkProxyHeader(value), value).toThrow(/^LATCHKEY_TRUSTED_PROXY_HEADER /);
    }
  });
});

describe('checkProxyHops', () => {
  it('reads a number of proxies and treats unset or empty as the default', () => {
    expect(checkProxyHops('1')).toBe(1);
    expect(checkProxyHops('2')).toBe(2);
    expect(checkProxyHops(undefined)).toBeUndefined();
    expect(checkProxyHops('')).toBeUndefined();
  });

  it('refuses what is not a whole number from 1 to 32, naming the variable', () => {
    for (const value of ['0', '-1', '1.5', 'two', '33', ' 2']) {
      expect(() => checkProxyHops(value), value).toThrow(/^LATCHKEY_TRUSTED_PROXY_HOPS /);
    }
  });
});

describe('checkRedisUrl', () => {
  it('passes Redis URLs through and treats unset or empty as none', () => {
    expect(checkRedisUrl('redis://:pw@redis.internal:6379/0')).toBe('redis://:pw@redis.internal:6379/0');
    expect(checkRedisUrl('rediss://redis.example.com:6380')).toBe('rediss://redis.example.com:6380');
    expect(checkRedisUrl(undefined)).toBeUndefined();
    expect(checkRedisUrl('')).toBeUndefined();
  });

  it('refuses what is not a Redis URL with one line naming the variable, never the password', () => {
    for (const value of ['redis.internal:6379', 'https://:hunter22@redis.internal', 'redis://']) {
      expect(() => checkRedisUrl(value), value).toThrow(/^REDIS_URL /);
      expect(() => checkRedisUrl(value), value).not.toThrow(/hunter22/);
    }
  });
});
