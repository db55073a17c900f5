/**
 * What a person can recognise a device by, from what the service recorded:
 * the browser and operating system named in a user agent (read with
 * `bowser`, at the time of the answer, so rows recorded before a parser
 * update read better after it), and an address cut to its network (a
 * failed sign-in's address is a stranger's: the owner of the account sees
 * where it came from, not who).
 */
import Bowser from 'bowser';
import ipaddr from 'ipaddr.js';

/** A device as the person's own lists show it: browser and OS names, null when the user agent does not say. */
export interface Device {
  browser: string | null;
  os: string | null;
}

/**
 * The browser and operating system `userAgent` names (`Chrome`, `macOS`),
 * without versions; null for what it does not name (a script's `curl/8.0`).
 *
 * @example
 * deviceOf('Mozilla/5.0 (X11; Linux x86_64) … Chrome/120.0.0.0 Safari/537.36'); // { browser: 'Chrome', os: 'Linux' }
 */
export function deviceOf(userAgent: string | null): Device {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}

/**
 * A person's name for the browser a user agent names (`Firefox on Windows`),
 * or the user agent itself (its first 120 characters) when it names no browser.
 *
 * @example
 * deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'); // 'Firefox on Windows'
 */
export function deviceName(userAgent: string): string {
  const { browser, os } = deviceOf(userAgent);
  if (!browser) return userAgent.slice(0, 120);
  return os ? `${browser} on ${os}` : browser;
}

/**
 * The address with its host part hidden: an IPv4 address's last number
 * (`203.0.113.x`), an IPv6 address past its first three groups, the
 * routing prefix (`2001:db8:85a3::/48`). Null for none or for text that is no address.
 */
export function maskedAddress(ip: string | null): string | null {
  if (!ip || !ipaddr.isValid(ip)) return null;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return `${address.toString().split('.').slice(0, 3).join('.')}.x`;
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 3);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0, 0]).toString()}/48`;
}
