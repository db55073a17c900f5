/**
 * The guard on connections the service opens to hosts that its users name
 * (a project's SMTP server, the test e-mail, a generic OpenID Connect issuer
 * and the endpoints it discovers): unless the operator allows the private
 * network, only public unicast addresses are reached. Loopback, private
 * (RFC 1918, unique-local), link-local (cloud metadata at 169.254.169.254
 * included), shared (100.64/10), unspecified, multicast, reserved and
 * translation ranges are refused, in every spelling (IPv4-mapped IPv6,
 * decimal or octal forms a resolver accepts).
 *
 * The check is made where the connection is opened, on the addresses the
 * name resolves to at that moment, not on the name as configured: a name that
 * resolves to 127.0.0.1 (or is changed to later) is refused, and every hop of
 * a redirect is checked again. The addresses are classified with `ipaddr.js`
 * (its range tables follow the IANA special-purpose registries), not with
 * hand-written prefix lists.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Thrown (or passed to a callback) when a host resolves to an address the guard refuses. */
class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(readonly host: string) {
    super(
      `${host} resolves to an address on a private, loopback or link-local network, which this server may not reach`,
    );
    this.name = 'AddressNotAllowedError';
  }
}

/** True when `error`, or an error it was caused by, is the guard's refusal. */
export function isAddressNotAllowed(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof AddressNotAllowedError) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True for an address on the public internet: a unicast address outside
 * every special-purpose range. An IPv4-mapped IPv6 address is judged as the
 * IPv4 address it carries. Anything that does not parse is not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so that the IPv4 ranges apply to it.
  return ipaddr.process(bare).range() === 'unicast';
}

/**
 * A `dns.lookup` for `net.connect` and its kin that refuses a name when any
 * address it resolves to is not public (a name with one private address is
 * refused whole: which one a client tries is not ours to choose).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(new AddressNotAllowedError(hostname) as NodeJS.ErrnoException, '', 0);
    if ((options as LookupOptions).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

/** Throws when `host` is an address literal the guard refuses (a literal is never looked up, so never reaches `guardedLookup`). */
function checkLiteralHost(host: string): void {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) && !isPublicAddress(bare)) throw new AddressNotAllowedError(host);
}

/** How the service reaches hosts its users name. */
export interface OutboundNetwork {
  /** The operator's choice: true lets every address through (development, or a private deployment). */
  readonly allowPrivateNetwork: boolean;
  /** A connected TCP socket to `host:port`, refused with `AddressNotAllowedError` before connecting to a forbidden address. */
  connect(host: string, port: number, timeoutMs: number): Promise<Socket>;
  /** `fetch` whose every connection (redirects included) passes the guard; the refusal is the cause of its error. */
  fetch: typeof fetch;
}

/**
 * The outbound network of a service. With `allowPrivateNetwork`, connections
 * go out unchecked (the global fetch, a plain socket); otherwise through the
 * guard. undici, which gives a fetch a connector of our own, is loaded on the
 * first guarded request only.
 */
export function outboundNetwork(options: { allowPrivateNetwork: boolean }): OutboundNetwork {
  const { allowPrivateNetwork } = options;
  let guardedFetch: Promise<typeof fetch> | undefined;
  return {
    allowPrivateNetwork,
    connect: (host, port, timeoutMs) => openSocket(host, port, timeoutMs, allowPrivateNetwork),
    fetch: allowPrivateNetwork
      ? (input, init) => fetch(input, init)
      : async (input, init) => {
          guardedFetch ??= loadGuardedFetch();
          return (await guardedFetch)(input, init);
        },
  };
}

function openSocket(host: string, port: number, timeoutMs: number, allowPrivate: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    try {
      if (!allowPrivate) checkLiteralHost(host);
    } catch (error) {
      reject(error);
      return;
    }
    const socket = netConnect({ host, port, ...(allowPrivate ? {} : { lookup: guardedLookup }) });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () =>
      fail(Object.assign(new Error(`connection to ${host}:${port} timed out`), { code: 'ETIMEDOUT' })),
    );
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

async function loadGuardedFetch(): Promise<typeof fetch> {
  const undici = await import('undici');
  const base = undici.buildConnector({ lookup: guardedLookup });
  const dispatcher = new undici.Agent({
    connect: (connectOptions, callback) => {
      try {
        checkLiteralHost(connectOptions.hostname);
      } catch (error) {
        callback(error as Error, null);
        return;
      }
      base(connectOptions, callback);
    },
  });
  return ((input: string | URL | Request, init?: RequestInit) =>
    undici.fetch(input as Parameters<typeof undici.fetch>[0], {
      ...(init as Parameters<typeof undici.fetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch;
}
