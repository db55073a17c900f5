/**
 * The machinery every outbox worker shares (the mail outbox,
 * `mail/outbox-worker.ts`, and webhook delivery, `webhooks/webhook-worker.ts`):
 * passes that claim due rows and deliver them, run when the change feed says
 * rows were added (or came back after a lost connection), when the worker
 * starts, and on a slow timer as a safety net; back-off after failures.
 *
 * What a row is, and how it is claimed, is the queue's: its store claims due
 * rows with `FOR UPDATE SKIP LOCKED` (instances share the work), marks them
 * `sending` under a lease (`leaseMs`; a worker that dies mid-send leaves them
 * for any worker once it runs out) and counts an attempt; `release` hands back
 * the rest of a batch when the worker stops. Due times follow the service
 * clock, so tests move their clock and call `deliverNow`.
 */
import type { Logger } from 'pino';
import type { ChangeFeed, FeedEvent } from '../storage/change-feed.js';

/** How long a claimed row stays with its worker before another may take it (longer than any send's timeouts). */
export const leaseMs = 5 * 60_000;

/**
 * When to try again after the attempt numbered `attempts` failed (1 for the
 * first), waiting `delaysMs[attempts - 1]`; null when that was the last one.
 *
 * @example
 * retryAt(1, [5_000, 60_000], now); // now + 5 s
 * retryAt(3, [5_000, 60_000], now); // null: failed for good
 */
export function retryAt(attempts: number, delaysMs: readonly number[], now: number): number | null {
  const delay = delaysMs[attempts - 1];
  return delay === undefined ? null : now + delay;
}

/** A queue the loop works on. */
interface ClaimQueue<Row> {
  /** What the log calls it ("mail", "webhook"). */
  readonly name: string;
  /** The feed event that says rows were added. */
  readonly wakeOn: FeedEvent['type'];
  /** Claims up to `limit` due rows under a lease. */
  claim(limit: number): Promise<Row[]>;
  /** Delivers one claimed row and records the outcome; throws only when the database fails. */
  deliver(row: Row): Promise<void>;
  /** Hands claimed rows back undelivered (the worker is stopping). */
  release(rows: Row[]): Promise<void>;
  /**
   * Deliver the rows of a batch at once rather than one after the other
   * (rows that never share a destination: a webhook batch holds one message
   * per endpoint). Default false.
   */
  readonly concurrent?: boolean;
}

/** Options of `ClaimLoop`. */
export interface ClaimLoopOptions<Row> {
  queue: ClaimQueue<Row>;
  feed: ChangeFeed;
  logger: Logger | null;
  /** Real-time interval of the safety-net pass. */
  pollIntervalMs: number;
  /** Rows claimed per query (default 10). */
  batchSize?: number;
}

/** Runs the passes of one queue; `start` it once, `close` it before closing the storage. */
export class ClaimLoop<Row> {
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly options: ClaimLoopOptions<Row>) {}

  /** Listens for new rows, starts the safety-net timer (which never keeps the process alive) and runs a pass. */
  start(): void {
    if (this.#closed || this.#timer) return;
    const { queue, feed } = this.options;
    this.#unsubscribe = feed.subscribe((event) => {
      // `live` again after a lost connection: notifications may have been missed meanwhile.
      if (event.type === queue.wakeOn || event.type === 'live') this.wake();
    });
    this.#timer = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.#timer.unref?.();
    this.wake();
  }

  /** Asks for a pass soon (after the current one, when one is running). */
  wake(): void {
    // Deferred: the feed may call this from inside the committing query of the one PGlite connection.
    setImmediate(() => void this.deliverNow());
  }

  /**
   * Runs passes until nothing is due, starting one after this call; resolves
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

  /** Stops listening and the timer, and waits for the row being delivered (the rest of a claimed batch is handed back). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#running;
  }

  async #loop(): Promise<void> {
    const batchSize = this.options.batchSize ?? 10;
    do {
      this.#again = false;
      try {
        // Until a pass finds nothing: a queue may hand out fewer rows than it has due (one per webhook endpoint).
        while (!this.#closed && (await this.#pass(batchSize)) > 0) {}
      } catch (error) {
        this.options.logger?.error(
          { err: { name: (error as Error).name, message: (error as Error).message } },
          `${this.options.queue.name} worker pass failed`,
        );
      }
    } while (this.#again && !this.#closed);
  }

  /** Claims and delivers one batch; returns how many were claimed. */
  async #pass(batchSize: number): Promise<number> {
    const { queue } = this.options;
    const rows = await queue.claim(batchSize);
    if (queue.concurrent) {
      await Promise.all(rows.map((row) => queue.deliver(row)));
      return rows.length;
    }
    for (const [index, row] of rows.entries()) {
      if (this.#closed) {
        await queue.release(rows.slice(index));
        break;
      }
      await queue.deliver(row);
    }
    return rows.length;
  }
}
