/**
 * Where a project's mail goes, and the nodemailer transports that take it
 * there. A `standard` e-mail config uses the project's own SMTP server; a
 * `shared` one the operator's (`smtpUrl`), or the dev mailbox in dev mode.
 * Transports are built once per server and reused. nodemailer is loaded when
 * the first transport is built, not at start: `latchkey dev` usually sends no
 * mail to a server at all (about 45 ms of its start).
 */
import { createHash } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Sealer } from '../crypto/encryption.js';
import type { OutboundNetwork } from '../net/outbound-guard.js';
import { openConfigSecrets } from '../projects/config-secrets.js';
import type { ProjectRecord } from '../projects/projects.js';

/** How long an SMTP exchange may take before the attempt counts as failed. */
export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
  dnsTimeout: number;
}

/** The outbox worker's timeouts: generous, a slow server still gets the mail. */
const workerTimeouts: SmtpTimeouts = {
  connectionTimeout: 15_000,
  greetingTimeout: 15_000,
  socketTimeout: 60_000,
  dnsTimeout: 10_000,
};

/** The test e-mail's timeouts: a dead host answers within seconds. */
export const testEmailTimeouts: SmtpTimeouts = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
  dnsTimeout: 5_000,
};

/** An SMTP server as a project's `standard` e-mail config (or the test e-mail) names it, password in clear. */
export interface SmtpServer {
  host: string;
  port: number;
  username: string;
  password: string;
  senderName: string;
  senderEmail: string;
}

/** A sender: display name and address. */
interface Sender {
  name: string;
  address: string;
}

/** Where one mail goes. */
export type Route =
  | {
      kind: 'smtp';
      transport: Transporter<SMTPTransport.SentMessageInfo>;
      from: Sender;
      /** Kept out of stored error messages. */
      secrets: string[];
    }
  | { kind: 'mailbox' }
  | { kind: 'none'; reason: string };

/**
 * How connections are kept: a burst of mail reuses one connection (a new
 * SMTP connection costs about 100 ms even on loopback, and a TLS handshake on
 * top elsewhere), closed again after a short idle time.
 */
const pooling = { pool: true, maxConnections: 2, maxMessages: 100, idleTimeout: 30_000 } as const;

type Nodemailer = typeof import('nodemailer').default;

let nodemailerModule: Promise<Nodemailer> | undefined;

/** nodemailer, imported once on first use; a failed import rejects each use with the import's own error. */
function loadNodemailer(): Promise<Nodemailer> {
  nodemailerModule ??= import('nodemailer').then((module) => module.default);
  return nodemailerModule;
}

/** How a transport to a project's server connects: pooled or not, and through the outbound guard. */
export interface SmtpConnecting {
  pooled: boolean;
  /** Opens the TCP connection (the guard refuses forbidden addresses before connecting). */
  outbound: OutboundNetwork;
}

/** Builds a transport for an SMTP server: implicit TLS on 465, else STARTTLS when the server offers it. */
export async function smtpTransport(
  server: SmtpServer,
  timeouts: SmtpTimeouts,
  options: SmtpConnecting,
): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
  return buildSmtpTransport(await loadNodemailer(), server, timeouts, options);
}

function buildSmtpTransport(
  nodemailer: Nodemailer,
  server: SmtpServer,
  timeouts: SmtpTimeouts,
  options: SmtpConnecting,
): Transporter<SMTPTransport.SentMessageInfo> {
  const { outbound } = options;
  // A socket of our own, connected through the guard; nodemailer speaks SMTP (and TLS, on 465) over it.
  const getSocket: SmtpGetSocket = (_options, callback) => {
    outbound.connect(server.host, server.port, timeouts.connectionTimeout).then(
      (connection) => callback(null, { connection }),
      (error: Error) => callback(error),
    );
  };
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.port === 465,
    ...(server.username || server.password ? { auth: { user: server.username, pass: server.password } } : {}),
    ...timeouts,
    ...(options.pooled ? pooling : {}),
    ...(outbound.allowPrivateNetwork ? {} : { getSocket }),
  } as SMTPTransport.Options);
}

type SmtpGetSocket = (
  options: unknown,
  callback: (error: Error | null, socket?: { connection: import('node:net').Socket }) => void,
) => void;

/** The operator's server from a URL (`smtp://user:pass@host:587`, `smtps://...` for implicit TLS). */
function urlTransport(
  nodemailer: Nodemailer,
  smtpUrl: string,
  timeouts: SmtpTimeouts,
): Transporter<SMTPTransport.SentMessageInfo> {
  // nodemailer reads host, port, TLS and credentials from the URL; the other options apply where it is silent.
  return nodemailer.createTransport({ url: smtpUrl, ...timeouts, ...pooling } as SMTPTransport.Options);
}

/** Options of the operator's shared delivery. */
interface SharedDelivery {
  /** The operator's SMTP server, or undefined. */
  smtpUrl?: string | undefined;
  /** Sender of shared mail: `Name <address>` or an address (the project's name is shown then). */
  smtpFrom?: string | undefined;
  /** Dev mode: shared mail without a server lands in the dev mailbox. */
  devMailbox: boolean;
}

/** Options of `Transports`. */
export interface TransportsOptions extends SharedDelivery {
  sealer: Sealer;
  /** How project servers are reached (the operator's own `smtpUrl` is trusted as it is). */
  outbound: OutboundNetwork;
}

/** Transports of project servers kept at most. */
const maxCachedTransports = 200;

/** Chooses and caches transports per configuration. */
export class Transports {
  #cache = new Map<string, Transporter<SMTPTransport.SentMessageInfo>>();
  #shared: Transporter<SMTPTransport.SentMessageInfo> | null = null;

  constructor(private readonly options: TransportsOptions) {}

  /** Where the project's mail goes now (its config may have changed since the last mail). */
  async routeFor(project: ProjectRecord): Promise<Route> {
    const email = project.config.email_config;
    if (email.type === 'standard') {
      // Loaded first, so that the cache below is read and written in one step, with no wait in between.
      const nodemailer = await loadNodemailer();
      const opened = openConfigSecrets(project.config, project.id, this.options.sealer).email_config;
      const password = opened.type === 'standard' ? (opened.password ?? '') : '';
      const server: SmtpServer = {
        host: email.host,
        port: email.port,
        username: email.username,
        password,
        senderName: email.sender_name,
        senderEmail: email.sender_email,
      };
      const key = createHash('sha256').update(JSON.stringify(server)).digest('base64url');
      let transport = this.#cache.get(key);
      if (!transport) {
        // Configs change rarely; a bound keeps edits of many projects from piling up transports.
        if (this.#cache.size >= maxCachedTransports) this.#closeCached();
        transport = buildSmtpTransport(nodemailer, server, workerTimeouts, {
          pooled: true,
          outbound: this.options.outbound,
        });
        this.#cache.set(key, transport);
      }
      return {
        kind: 'smtp',
        transport,
        from: { name: server.senderName, address: server.senderEmail },
        secrets: [password],
      };
    }
    if (this.options.smtpUrl) {
      const nodemailer = await loadNodemailer();
      this.#shared ??= urlTransport(nodemailer, this.options.smtpUrl, workerTimeouts);
      return {
        kind: 'smtp',
        transport: this.#shared,
        from: sharedSender(this.options, project.displayName),
        secrets: urlSecrets(this.options.smtpUrl),
      };
    }
    if (this.options.devMailbox) return { kind: 'mailbox' };
    return { kind: 'none', reason: 'no SMTP server configured (set LATCHKEY_SMTP_URL, or give the project its own)' };
  }

  /** Closes every transport. */
  close(): void {
    this.#closeCached();
    this.#shared?.close();
    this.#shared = null;
  }

  #closeCached(): void {
    for (const transport of this.#cache.values()) transport.close();
    this.#cache.clear();
  }
}

/** The sender of shared mail: the configured one, else `noreply@` the SMTP host, named after the project. */
function sharedSender(options: SharedDelivery, projectName: string): Sender {
  const from = options.smtpFrom?.trim();
  const named = from ? /^(.*?)\s*<([^<>]+)>$/.exec(from) : null;
  if (named) return { name: named[1]!.replace(/^"|"$/g, '') || projectName, address: named[2]! };
  if (from) return { name: projectName, address: from };
  let host = 'localhost';
  try {
    host = new URL(options.smtpUrl!).hostname || host;
  } catch {}
  return { name: projectName, address: `noreply@${host}` };
}

/**
 * The recipient as one plain address, or null. nodemailer reads a string
 * recipient as a list (commas, line breaks, groups), so a stored address is
 * checked here and handed over as one address with an explicit envelope:
 * whatever slipped past validation cannot add a recipient or a header.
 */
export function plainAddress(recipient: string): string | null {
  return /^[^\s\p{Cc}@,;:<>()[\]"\\]{1,64}@[^\s\p{Cc}@,;:<>()[\]"\\]{1,255}$/u.test(recipient) ? recipient : null;
}

/** The credentials inside an SMTP URL. */
function urlSecrets(smtpUrl: string): string[] {
  try {
    const url = new URL(smtpUrl);
    return [decodeURIComponent(url.password), url.password].filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The message of a failed SMTP exchange, fit to store and show to admins:
 * the server's reply when there is one, never a secret in it.
 */
export function deliveryError(error: unknown, secrets: readonly string[]): string {
  const raw = error instanceof Error ? error.message : String(error);
  let message = raw.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'delivery failed';
  for (const secret of secrets) {
    if (secret.length >= 3) {
      message = message.split(secret).join('***').split(encodeURIComponent(secret)).join('***');
    }
  }
  return message;
}
