/**
 * The outbox worker: sends the mails of `email_outbox`, at least once.
 *
 * Every instance of the service runs one. A pass claims due rows with
 * `FOR UPDATE SKIP LOCKED` (instances share the work), marks them `sending`
 * under a lease, sends, then records `sent` or schedules a retry with
 * exponential back-off until the last attempt fails. A worker that dies
 * mid-send leaves its rows `sending`; once the lease runs out any worker takes
 * them again. Due times follow the service clock, so tests move their clock.
 * Bodies are opened from their seal just before sending (`sealed-mail.ts`)
 * and dropped once SMTP accepted the mail or it failed for good.
 *
 * A pass runs when a mail is queued (the change feed carries the commit's
 * `NOTIFY`), when the service starts, and on a slow timer as a safety net.
 */
import type { Logger } from 'pino';
import type { Clock } from '../common/clock.js';
import type { Sealer } from '../crypto/encryption.js';
import { findProject, type ProjectRecord } from '../projects/projects.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import type { OutboxRow } from '../storage/schema.js';
import { claimDueMails, markMailFailed, markMailSent, releaseMails } from './outbox-store.js';
import { openContent } from './sealed-mail.js';
import { deliveryError, plainAddress, type Transports } from './transports.js';

/** Waits after the 1st, 2nd, ... failed attempt: 2, 4, 8, 16 and 32 minutes, about an hour in all. */
export const retryDelaysMs: readonly number[] = [2, 4, 8, 16, 32].map((minutes) => minutes * 60_000);

/** Attempts before a mail is `failed` for good. */
export const maxAttempts = retryDelaysMs.length + 1;

/** How long a claimed mail stays with its worker before another may take it (longer than any send's timeouts). */
export const leaseMs = 5 * 60_000;

/** Mails claimed per query. */
const batchSize = 10;

/** Options of `OutboxWorker`. */
export interface OutboxWorkerOptions {
  db: Db;
  clock: Clock;
  transports: Transports;
  feed: ChangeFeed;
  /** Opens the sealed bodies (`sealed-mail.ts`). */
  sealer: Sealer;
  logger: Logger | null;
  /** Real-time interval of the safety-net pass (default 30 s). */
  pollIntervalMs?: number;
}

/** Sends queued mail; `start` it once, `close` it before closing the storage. */
export class OutboxWorker {
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly options: OutboxWorkerOptions) {}

  /** Listens for queued mail, starts the safety-net timer (which never keeps the process alive) and runs a pass. */
  start(): void {
    if (this.#closed || this.#timer) return;
    this.#unsubscribe = this.options.feed.subscribe((event) => {
      // `live` again after a lost connection: notifications may have been missed meanwhile.
      if (event.type === 'mail' || event.type === 'live') this.wake();
    });
    this.#timer = setInterval(() => this.wake(), this.options.pollIntervalMs ?? 30_000);
    this.#timer.unref?.();
    this.wake();
  }

  /** Asks for a pass soon (after the current one, when one is running). */
  wake(): void {
    // Deferred: the feed may call this from inside the committing query of the one PGlite connection.
    setImmediate(() => void this.deliverNow());
  }

  /**
   * Runs passes until no mail is due, starting one after this call; resolves
   * when they are done. Failures of the database are logged, never thrown.
   */
  deliverNow(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Stops listening and the timer, and waits for the mail being sent (the rest of a claimed batch is handed back). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        while (!this.#closed && (await this.#pass()) === batchSize) {}
      } catch (error) {
        this.options.logger?.error(
          { err: { name: (error as Error).name, message: (error as Error).message } },
          'mail worker pass failed',
        );
      }
    } while (this.#again && !this.#closed);
  }

  /** Claims and sends one batch; returns how many were claimed. */
  async #pass(): Promise<number> {
    const { db, clock } = this.options;
    const now = clock.now();
    const rows = await claimDueMails(db, { now, leaseUntil: now + leaseMs, limit: batchSize, maxAttempts });
    const projects = new Map<string, ProjectRecord | null>();
    for (const [index, row] of rows.entries()) {
      if (this.#closed) {
        await releaseMails(
          db,
          rows.slice(index).map((rest) => rest.id),
          clock.now(),
        );
        break;
      }
      if (!projects.has(row.project_id)) projects.set(row.project_id, await findProject(db, row.project_id));
      await this.#deliver(row, projects.get(row.project_id) ?? null);
    }
    return rows.length;
  }

  async #deliver(row: OutboxRow, project: ProjectRecord | null): Promise<void> {
    const { db, clock, transports, sealer, logger } = this.options;
    let secrets: string[] = [];
    try {
      if (!project) throw new Error('the project no longer exists');
      const to = plainAddress(row.recipient);
      if (to === null) {
        // Never deliverable: no point retrying.
        await markMailFailed(db, row.id, { error: 'the recipient is not one plain e-mail address', retryAt: null });
        return;
      }
      const route = await transports.routeFor(project);
      if (route.kind === 'none') throw new Error(route.reason);
      if (route.kind === 'mailbox') {
        await markMailSent(db, row.id, { now: clock.now(), transport: 'mailbox', keepBody: true });
        return;
      }
      secrets = route.secrets;
      const content = openContent(sealer, row);
      if (content === null) {
        await markMailFailed(db, row.id, { error: 'the mail has no body any more', retryAt: null });
        return;
      }
      await route.transport.sendMail({
        from: route.from,
        to: { name: '', address: to },
        envelope: { from: route.from.address, to: [to] },
        subject: content.subject,
        ...(content.html !== '' ? { html: content.html } : {}),
        ...(content.text !== '' ? { text: content.text } : {}),
      });
      await markMailSent(db, row.id, { now: clock.now(), transport: 'smtp', keepBody: false });
    } catch (error) {
      const message = deliveryError(error, secrets);
      const delay = retryDelaysMs[row.attempts - 1];
      const retryAt = row.attempts >= maxAttempts || delay === undefined ? null : clock.now() + delay;
      await markMailFailed(db, row.id, { error: message, retryAt });
      logger?.warn(
        { mailId: row.id, attempts: row.attempts, gaveUp: retryAt === null, error: message },
        'mail delivery failed',
      );
    }
  }
}
