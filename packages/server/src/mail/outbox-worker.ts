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
 * `NOTIFY`), when the service starts, and on a slow timer as a safety net:
 * the loop, lease and back-off every outbox shares (`common/claim-loop.ts`).
 */
import type { Logger } from 'pino';
import { ClaimLoop, leaseMs, retryAt } from '../common/claim-loop.js';
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

export { leaseMs };

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
  readonly #loop: ClaimLoop<OutboxRow>;
  /** The projects of the batch being sent (one read per project and batch). */
  #projects = new Map<string, Promise<ProjectRecord | null>>();

  constructor(private readonly options: OutboxWorkerOptions) {
    const { db, clock } = options;
    this.#loop = new ClaimLoop({
      queue: {
        name: 'mail',
        wakeOn: 'mail',
        claim: (limit) => {
          this.#projects.clear();
          const now = clock.now();
          return claimDueMails(db, { now, leaseUntil: now + leaseMs, limit, maxAttempts });
        },
        deliver: (row) => this.#deliver(row),
        release: (rows) =>
          releaseMails(
            db,
            rows.map((row) => row.id),
            clock.now(),
          ),
      },
      feed: options.feed,
      logger: options.logger,
      pollIntervalMs: options.pollIntervalMs ?? 30_000,
    });
  }

  /** Listens for queued mail, starts the safety-net timer and runs a pass. */
  start(): void {
    this.#loop.start();
  }

  /** Asks for a pass soon (after the current one, when one is running). */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Runs passes until no mail is due, starting one after this call; resolves
   * when they are done. Failures of the database are logged, never thrown.
   */
  deliverNow(): Promise<void> {
    return this.#loop.deliverNow();
  }

  /** Stops listening and the timer, and waits for the mail being sent (the rest of a claimed batch is handed back). */
  close(): Promise<void> {
    return this.#loop.close();
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const { db, clock, transports, sealer, logger } = this.options;
    let secrets: string[] = [];
    try {
      let project = this.#projects.get(row.project_id);
      if (!project) {
        project = findProject(db, row.project_id);
        this.#projects.set(row.project_id, project);
      }
      const found = await project;
      if (!found) throw new Error('the project no longer exists');
      const to = plainAddress(row.recipient);
      if (to === null) {
        // Never deliverable: no point retrying.
        await markMailFailed(db, row.id, { error: 'the recipient is not one plain e-mail address', retryAt: null });
        return;
      }
      const route = await transports.routeFor(found);
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
      const next = retryAt(row.attempts, retryDelaysMs, clock.now());
      await markMailFailed(db, row.id, { error: message, retryAt: next });
      logger?.warn(
        { mailId: row.id, attempts: row.attempts, gaveUp: next === null, error: message },
        'mail delivery failed',
      );
    }
  }
}
