/**
 * Whether a redirect or callback URL may be used for a project: on one of its
 * trusted domains (same origin), or on localhost when `allow_localhost` is on.
 */
import type { ProjectConfig } from './project-config.js';

/** `localhost`, `*.localhost`, `127.x.x.x` or `[::1]`. */
export function isLocalhostName(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/** True when `url` is an http(s) URL the project trusts. */
export function isTrustedUrl(url: string, config: Pick<ProjectConfig, 'allow_localhost' | 'domains'>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (config.allow_localhost && isLocalhostName(parsed.hostname)) return true;
  return config.domains.some(({ domain }) => {
    try {
      return new URL(domain).origin === parsed.origin;
    } catch {
      return false;
    }
  });
}
