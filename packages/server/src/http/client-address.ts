/**
 * The client's address, which every per-address limit counts and the audit
 * log and sessions record. Without a trusted proxy header it is the socket's
 * peer. Behind proxies (`trustedProxyHeader`), it is the entry the proxy
 * nearest the client appended: nginx (`proxy_add_x_forwarded_for`), AWS ALB,
 * Traefik, Caddy and Heroku add the address they saw at the END of
 * `x-forwarded-for`, after whatever the client wrote, so the entries on the
 * left are the client's to choose and only those counted from the right are
 * true. `trustedProxyHops` says how many proxies in a row add one (default 1:
 * the right-most entry); a single-value header such as Cloudflare's
 * `cf-connecting-ip` is one hop. A header that is missing, shorter than the
 * hops, or whose entry is not an IP address gives the socket's peer.
 *
 * The client's country is read the same way: only from the header the
 * service is told to trust (`countryHeader`, e.g. Cloudflare's `cf-ipcountry`
 * set by the proxy), never guessed from the address.
 */
import { isIP } from 'node:net';

/** Where the client's address is read: a header some proxies in a row append to, or none. */
export interface ProxyTrust {
  /** Lower-case header name, e.g. `x-forwarded-for`; undefined reads the socket only. */
  header: string | undefined;
  /** How many entries from the right the client's is (the proxies in a row that append). At least 1. */
  hops: number;
}

/**
 * The trust of `createService`'s options, or a TypeError naming the option
 * when the hops are not a whole number from 1 up.
 */
export function proxyTrust(header: string | undefined, hops: number | undefined): ProxyTrust {
  if (hops !== undefined && !(Number.isInteger(hops) && hops >= 1 && hops <= 32)) {
    throw new TypeError('createService: trustedProxyHops must be a whole number from 1 to 32');
  }
  return { header: header?.toLowerCase() || undefined, hops: hops ?? 1 };
}

/**
 * The client's address of `request` (IPv4 or IPv6, IPv4-mapped IPv6 written
 * as IPv4), or null when neither the header nor the socket gives one.
 *
 * @example
 * clientAddress(request, '10.0.0.2', { header: 'x-forwarded-for', hops: 1 }); // the right-most entry
 */
export function clientAddress(request: Request, peer: string | undefined, trust: ProxyTrust): string | null {
  const entries = trust.header ? (request.headers.get(trust.header)?.split(',') ?? []) : [];
  const appended = entries.length >= trust.hops ? ipAddress(entries[entries.length - trust.hops]!) : null;
  return appended ?? (peer === undefined ? null : ipAddress(peer));
}

/** `text` as a bare IP address (port and IPv6 brackets taken off, as some proxies write them), or null. */
function ipAddress(text: string): string | null {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.indexOf(':'));
  if (isIP(address) === 0) return null;
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/**
 * The ISO 3166 alpha-2 code in the trusted country header, upper-cased, or
 * null: no header configured, none sent, or not two letters (Cloudflare's
 * `XX` for unknown and `T1` for Tor count as none).
 */
export function countryOf(request: Request, countryHeader: string | null): string | null {
  const value = countryHeader ? request.headers.get(countryHeader)?.trim() : undefined;
  if (!value || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return code === 'XX' ? null : code;
}
