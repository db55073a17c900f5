/**
 * A real SMTP server on loopback for tests (the `smtp-server` package): it
 * accepts every mail, optionally only after AUTH with given credentials, and
 * keeps each message raw, as it arrived, with its envelope. It can be stopped
 * and started again on the same port to play an SMTP server that is down.
 *
 * @example
 * const peer = await startSmtpPeer({ users: { mailer: 'secret' } });
 * // ... configure a project with host 127.0.0.1, port peer.port, then queue a mail
 * const [mail] = await peer.waitForMessages(1);
 * expect(header(mail!.raw, 'subject')).toBe('Reset your password');
 * await peer.close();
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the peer received. */
interface ReceivedMail {
  /** The envelope's sender (MAIL FROM). */
  from: string;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The user that authenticated, or null. */
  user: string | null;
  /** The message as received: headers, blank line, body (CRLF line ends). */
  raw: string;
}

/** A running peer. */
export interface SmtpPeer {
  host: string;
  port: number;
  /** `smtp://[user:pass@]127.0.0.1:<port>` (the first user's credentials when users are given). */
  url: string;
  /** Every message received so far, in order of arrival. */
  messages: ReceivedMail[];
  /** Connections accepted so far (a refused client never opens one). */
  readonly connections: number;
  /** Resolves once `count` messages arrived in all (rejects after `timeoutMs`, default 10 s). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening (the port is kept for `start`); connections in progress are cut. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a peer on an ephemeral port of 127.0.0.1; with `users`, AUTH with one of them is required. */
export async function startSmtpPeer(options: { users?: Record<string, string> } = {}): Promise<SmtpPeer> {
  const host = '127.0.0.1';
  const users = options.users;
  const messages: ReceivedMail[] = [];
  let waiters: (() => void)[] = [];
  let server: SMTPServer | null = null;
  let port = 0;
  let connections = 0;

  const listen = async () => {
    const next = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: !users,
      logger: false,
      closeTimeout: 500,
      disableReverseLookup: true,
      onConnect(_session, callback) {
        connections++;
        callback();
      },
      onAuth(auth, _session, callback) {
        if (!users || users[auth.username ?? ''] === auth.password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === 'string' ? session.user : null,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
          for (const wake of waiters) wake();
        });
      },
    });
    next.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      next.server.once('error', reject);
      next.listen(port, host, () => {
        next.server.off('error', reject);
        resolve();
      });
    });
    port = (next.server.address() as AddressInfo).port;
    server = next;
  };

  const stop = async () => {
    const current = server;
    server = null;
    if (!current) return;
    // Cut open connections too: a stopped server answers nothing.
    const connections = (current as unknown as { connections?: Set<{ close?: () => void }> }).connections;
    for (const connection of connections ?? []) connection.close?.();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  const [firstUser] = Object.entries(users ?? {});
  const credentials = firstUser ? `${encodeURIComponent(firstUser[0])}:${encodeURIComponent(firstUser[1])}@` : '';
  return {
    host,
    port,
    url: `smtp://${credentials}${host}:${port}`,
    messages,
    get connections() {
      return connections;
    },
    waitForMessages(count, timeoutMs = 10_000) {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== check);
          reject(new Error(`the SMTP peer received ${messages.length} of ${count} messages`));
        }, timeoutMs);
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== check);
          resolve(messages.slice());
        };
        waiters.push(check);
      });
    },
    stop,
    start: listen,
    close: stop,
  };
}

/** The value of header `name` in a raw message (unfolded), or null. */
export function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? null : line.slice(name.length + 1).trim();
}

/** The header names of a raw message, lower-cased, in order. */
export function headerNames(raw: string): string[] {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  return head
    .split(/\r?\n/)
    .filter((line) => /^[^\s:]+:/.test(line))
    .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
}
