/** `LATCHKEY_SMTP_URL` checked before the service starts, so a typo is one line at start, not a failed mail later. */
import { CliError } from './errors.js';

const example = 'smtp://user:password@smtp.example.com:587 (smtps://...:465 for implicit TLS)';

/**
 * The operator's SMTP URL when it is one, else undefined (unset or empty);
 * a one-line error naming `LATCHKEY_SMTP_URL` when it is not an SMTP URL.
 *
 * @example
 * const smtpUrl = checkSmtpUrl(context.env.LATCHKEY_SMTP_URL);
 */
export function checkSmtpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`LATCHKEY_SMTP_URL is not a URL: expected ${example}`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new CliError(`LATCHKEY_SMTP_URL is a ${url.protocol.replace(/:$/, '')}:// URL: expected ${example}`);
  }
  if (!url.hostname) throw new CliError(`LATCHKEY_SMTP_URL names no host: expected ${example}`);
  return value;
}

/**
 * `LATCHKEY_PUBLIC_URL` (the origin browsers reach the service at, for the
 * OAuth callback URLs registered at providers) when set, else undefined; a
 * one-line error naming it when it is not an http(s) URL.
 *
 * @example
 * const publicUrl = checkPublicUrl(context.env.LATCHKEY_PUBLIC_URL);
 */
export function checkPublicUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(
      'LATCHKEY_PUBLIC_URL is not a URL: expected the origin browsers use, e.g. https://auth.example.com',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`LATCHKEY_PUBLIC_URL is a ${url.protocol.replace(/:$/, '')}:// URL: expected https://...`);
  }
  return url.origin;
}

/**
 * `LATCHKEY_TRUSTED_PROXY_HEADER` (the header a trusted proxy sets to the
 * client's address, e.g. `x-forwarded-for`) lower-cased when set, else
 * undefined; a one-line error naming it when it is not a header name.
 *
 * @example
 * const trustedProxyHeader = checkProxyHeader(context.env.LATCHKEY_TRUSTED_PROXY_HEADER);
 */
export function checkProxyHeader(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(value)) {
    throw new CliError('LATCHKEY_TRUSTED_PROXY_HEADER is not a header name: expected e.g. x-forwarded-for');
  }
  return value.toLowerCase();
}

/**
 * `LATCHKEY_TRUSTED_PROXY_HOPS` (how many proxies in a row append to the
 * trusted proxy header: the client's address is that many entries from the
 * right) as a number when set, else undefined (the service's default, 1); a
 * one-line error naming it when it is not a whole number from 1 to 32.
 *
 * @example
 * const trustedProxyHops = checkProxyHops(context.env.LATCHKEY_TRUSTED_PROXY_HOPS);
 */
export function checkProxyHops(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const hops = /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  if (!(hops >= 1 && hops <= 32)) {
    throw new CliError(
      'LATCHKEY_TRUSTED_PROXY_HOPS is not a number of proxies: expected 1 (one proxy appends), 2 (two in a row), ... up to 32',
    );
  }
  return hops;
}

const redisExample = 'redis://:password@redis.internal:6379 (rediss:// for TLS)';

/**
 * `REDIS_URL` (a Redis to count the limits on guessing in, shared by every
 * instance) when set, else undefined; a one-line error naming it, never the
 * password, when it is not a Redis URL.
 *
 * @example
 * const redisUrl = checkRedisUrl(context.env.REDIS_URL);
 */
export function checkRedisUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`REDIS_URL is not a URL: expected ${redisExample}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new CliError(`REDIS_URL is a ${url.protocol.replace(/:$/, '')}:// URL: expected ${redisExample}`);
  }
  if (!url.hostname) throw new CliError(`REDIS_URL names no host: expected ${redisExample}`);
  return value;
}
