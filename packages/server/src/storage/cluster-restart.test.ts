/**
 * The database stopped under load and started again. A throwaway PostgreSQL cluster that the test owns is stopped while
 * several clients sign up, sign in and read their user over HTTP, then
 * started again. While it is down every request answers 503 with
 * `Retry-After` at once, never a 500 and never a hang; once it is back the
 * same service answers 200 again by itself, every sign-up it answered 200 is
 * there whole, and one it answered 503 is there whole or not at all. Once
 * with a fast shutdown, once with an immediate one (a crash: the restart
 * recovers from the WAL).
 *
 * Needs the PostgreSQL server binaries (`initdb`, `postgres`); skips, saying
 * why, where there are none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, authHeaders, call, newEmail, signUp, userHeaders, within } from '../test-support/api.js';
import { type PgCluster, startPgCluster } from '../test-support/pg-cluster.js';
import { startTestService, type TestService } from '../testing/index.js';
import { dbOf } from './open-storage.js';

const timeouts = { connectMs: 700, statementMs: 1_000, lockMs: 500, idleInTransactionMs: 5_000, queryMs: 1_500 };
const loadPassword = 'load-password-1';
/** A request not answered by then has hung. */
const hangMs = 10_000;

const started = await startPgCluster();
if (!started.available) console.warn(`Cluster restart tests skipped: ${started.reason}`);

type User = Awaited<ReturnType<typeof signUp>>;
type Kind = 'sign-up' | 'sign-in' | 'me';
const kinds: Kind[] = ['sign-up', 'sign-in', 'me'];

/** One request of the load: its real status (or why there is none), and when it was sent and answered. */
interface Sample {
  kind: Kind;
  sentAt: number;
  answeredAt: number;
  status: number | 'hung' | 'no answer';
  retryAfter: string | null;
  text: string;
  /** Sign-ups: the credentials sent. */
  email?: string;
  password?: string;
}

/** Several clients at once, each sending sign-ups, sign-ins and `GET /users/me` in turn until stopped. */
class Load {
  readonly samples: Sample[] = [];
  #running = true;
  readonly #clients: Promise<void>[];

  constructor(
    readonly service: TestService,
    readonly users: User[],
    clients = 6,
  ) {
    this.#clients = Array.from({ length: clients }, (_, index) => this.#client(index));
  }

  count(predicate: (sample: Sample) => boolean): number {
    return this.samples.filter(predicate).length;
  }

  async stop(): Promise<Sample[]> {
    this.#running = false;
    await Promise.all(this.#clients);
    return this.samples;
  }

  async #client(index: number): Promise<void> {
    for (let turn = index; this.#running; turn++) {
      const sample = await this.#send(kinds[turn % kinds.length]!, this.users[turn % this.users.length]!);
      this.samples.push(sample);
      // A client backs off after a 503 (less than Retry-After, so the recovery shows at once) instead of spinning.
      if (sample.status === 503) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async #send(kind: Kind, user: User): Promise<Sample> {
    const sentAt = performance.now();
    const credentials = kind === 'sign-up' ? { email: newEmail('load'), password: loadPassword } : {};
    const request =
      kind === 'me'
        ? call(this.service, 'GET', '/users/me', { headers: userHeaders(this.service, user) })
        : call(this.service, 'POST', `/auth/password/${kind}`, {
            headers: authHeaders(this.service),
            json: kind === 'sign-up' ? credentials : { email: user.email, password: user.password },
          });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(resolve, hangMs, 'hung');
    });
    const answer: Answer | 'hung' | Error = await Promise.race([request, hung])
      .catch((error: Error) => error)
      .finally(() => clearTimeout(timer));
    const base = { kind, sentAt, answeredAt: performance.now(), ...credentials };
    if (answer === 'hung') return { ...base, status: 'hung', retryAfter: null, text: '' };
    if (answer instanceof Error) return { ...base, status: 'no answer', retryAfter: null, text: answer.message };
    return { ...base, status: actualStatus(answer), retryAfter: answer.headers.get('retry-after'), text: answer.text };
  }
}

/** The status the service meant (moved to `x-stack-actual-status` when asked to, as the SDK does). */
function actualStatus(answer: Answer): number {
  return Number(answer.headers.get('x-stack-actual-status') ?? answer.status);
}

describe.skipIf(!started.available)('PostgreSQL stopped under load and started again', () => {
  let cluster: PgCluster;
  let service: TestService;
  let users: User[];
  const signUps: Sample[] = [];

  beforeAll(async () => {
    if (!started.available) return;
    cluster = started.cluster;
    service = await startTestService({ databaseUrl: cluster.url, storageTimeouts: timeouts, attemptLimits: false });
    users = await Promise.all([signUp(service), signUp(service), signUp(service)]);
  });

  afterAll(async () => {
    if (!started.available) return;
    await service?.close().catch(() => {});
    await service?.storage.close().catch(() => {}); // when the schema could not be dropped, the pool is still open
    await cluster.destroy();
  });

  /** Stops the cluster (`mode`) under load, starts it again once the outage showed, and returns what was seen. */
  async function outage(mode: 'fast' | 'immediate') {
    const load = new Load(service, users);
    try {
      await within(async () => load.count((s) => s.status === 200) >= 24, 10_000);
      const stopAt = performance.now();
      await cluster.stop({ mode });
      const downAt = performance.now();
      await within(async () => load.count((s) => s.sentAt > downAt && s.status === 503) >= 12, 5_000);
      const startAt = performance.now();
      await cluster.start();
      const upAt = performance.now();
      // Recovered: each kind of request, sent after the database went down, answered 200.
      const recovered = (kind: Kind) =>
        load.samples.some((s) => s.kind === kind && s.sentAt > downAt && s.status === 200);
      await within(async () => kinds.every(recovered), 10_000);
      const backAt = performance.now();
      await within(async () => load.count((s) => s.sentAt > backAt && s.status === 200) >= 24, 10_000);
      const samples = await load.stop();
      const firstUnavailable = Math.min(...samples.filter((s) => s.status === 503).map((s) => s.answeredAt));
      const firstBack = Math.min(
        ...samples.filter((s) => s.status === 200 && s.sentAt > downAt).map((s) => s.answeredAt),
      );
      return {
        samples,
        firstUnavailableMs: firstUnavailable - stopAt,
        stopTookMs: downAt - stopAt,
        startTookMs: upAt - startAt,
        firstBackMs: firstBack - startAt,
        // Every 200 after that first one: the service stays recovered.
        relapses: samples.filter((s) => s.sentAt > firstBack && s.status !== 200),
        // Sent before the stop, answered after it: the requests the stop caught in the middle.
        caught: samples.filter((s) => s.sentAt < stopAt && s.answeredAt > stopAt),
        slowest503Ms: Math.max(...samples.filter((s) => s.status === 503).map((s) => s.answeredAt - s.sentAt)),
      };
    } finally {
      await load.stop();
      if (!cluster.running) await cluster.start();
    }
  }

  /** The project's users whose sign-up wrote all it writes: password, primary e-mail channel for sign-in, a session. */
  async function wholeUsers(): Promise<{ all: Set<string>; whole: Set<string> }> {
    const db = dbOf(service.storage);
    const projectId = service.projectId;
    const rows = await db
      .selectFrom('users')
      .select(['id', 'primary_email', 'password_hash'])
      .where('project_id', '=', projectId)
      .execute();
    const channels = await db
      .selectFrom('contact_channels')
      .select(['user_id', 'value'])
      .where('project_id', '=', projectId)
      .where('is_primary', '=', true)
      .where('used_for_auth', '=', true)
      .execute();
    const sessions = await db.selectFrom('sessions').select('user_id').where('project_id', '=', projectId).execute();
    const channelOf = new Map(channels.map((channel) => [channel.user_id, channel.value]));
    const withSession = new Set(sessions.map((session) => session.user_id));
    const all = new Set(rows.map((row) => row.primary_email ?? `(no e-mail: ${row.id})`));
    const whole = new Set(
      rows
        .filter((row) => row.password_hash && channelOf.get(row.id) === row.primary_email && withSession.has(row.id))
        .map((row) => row.primary_email!),
    );
    return { all, whole };
  }

  /** Signs in with each sign-up answered 200; returns the statuses other than 200. */
  async function signInFailures(emails: string[]): Promise<string[]> {
    const answers = await Promise.all(
      emails.map((email) =>
        call(service, 'POST', '/auth/password/sign-in', {
          headers: authHeaders(service),
          json: { email, password: loadPassword },
        }),
      ),
    );
    return answers.flatMap((answer, index) =>
      actualStatus(answer) === 200 ? [] : [`${emails[index]}: ${actualStatus(answer)}`],
    );
  }

  it.each(['fast', 'immediate'] as const)(
    '%s stop: 503 at once while down, 200 by itself once back, nothing lost',
    async (mode) => {
      const seen = await outage(mode);
      const { samples } = seen;
      const count = (status: Sample['status']) => samples.filter((s) => s.status === status).length;
      const others = samples.filter((s) => s.status !== 200 && s.status !== 503);
      signUps.push(...samples.filter((s) => s.kind === 'sign-up'));
      const { all, whole } = await wholeUsers();
      const committedDespite503 = signUps.filter((s) => s.status === 503 && whole.has(s.email!)).length;
      const figure =
        `[figure] PostgreSQL ${mode} stop under load: first 503 ${Math.round(seen.firstUnavailableMs)} ms after the stop` +
        ` (server gone after ${Math.round(seen.stopTookMs)} ms), server back ${Math.round(seen.startTookMs)} ms` +
        ` after the start, first 200 ${Math.round(seen.firstBackMs)} ms after the start;` +
        ` answers 200 × ${count(200)}, 503 × ${count(503)}, other × ${others.length};` +
        ` caught by the stop ${seen.caught.length} (503 × ${seen.caught.filter((s) => s.status === 503).length});` +
        ` slowest 503 ${Math.round(seen.slowest503Ms)} ms; sign-ups so far answered 503 yet committed whole: ${committedDespite503}`;
      console.log(figure);

      // Nothing lost: each sign-up answered 200 is there whole and signs in; every user is whole (so one answered
      // 503 is there whole or not at all); and every user is one somebody signed up.
      const answered = signUps.filter((s) => s.status === 200).map((s) => s.email!);
      const attempted = new Set([...signUps.map((s) => s.email!), ...users.map((user) => user.email)]);
      expect({
        lost: answered.filter((email) => !whole.has(email)),
        halfWritten: [...all].filter((email) => !whole.has(email)),
        unknown: [...all].filter((email) => !attempted.has(email)),
        cannotSignIn: await signInFailures(answered),
      }).toEqual({ lost: [], halfWritten: [], unknown: [], cannotSignIn: [] });

      expect(others.map((s) => `${s.kind}: ${s.status} ${s.text.slice(0, 200)}`)).toEqual([]);
      for (const sample of samples.filter((s) => s.status === 503)) {
        expect(sample.retryAfter).toBe('2');
        expect(sample.text).toMatch(/cannot reach its database/);
      }
      expect(seen.slowest503Ms, figure).toBeLessThan(timeouts.connectMs + timeouts.queryMs + 1_000);
      expect(seen.firstUnavailableMs, figure).toBeLessThan(3_000);
      expect(seen.firstBackMs, figure).toBeLessThan(5_000);
      expect(seen.relapses.map((s) => `${s.kind}: ${s.status}`)).toEqual([]);
    },
  );
});
