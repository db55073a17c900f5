/**
 * Project metrics (wire-protocol.md §15.9), admin access: `GET
 * /internal/metrics` and its decoder, and the module `AdminApp` mounts.
 */
import type { MetricsDayWire, MetricsWire } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { type Fields, readFields } from '../internal/decode/fields.js';
import type { Query } from '../query.js';
import { createServerUser, type ServerUser } from '../users/server-user.js';
import { readServerUser, type ServerUserData } from '../users/user-decoder.js';

/**
 * One day of a daily series: the day (`YYYY-MM-DD`, UTC) and its count.
 *
 * @example
 * ```ts
 * const today: MetricsDay = metrics.dailyActiveUsers.at(-1)!;
 * ```
 */
export interface MetricsDay {
  date: string;
  activity: number;
}

/**
 * A project's user metrics, as the dashboard shows them.
 *
 * @example
 * ```ts
 * const { totalUsers, dailyUsers } = await adminApp.getMetrics();
 * ```
 */
export interface Metrics<U = ServerUser> {
  totalUsers: number;
  /** Sign-ups per day, oldest first, today last. */
  dailyUsers: MetricsDay[];
  /** Users active per day, oldest first, today last. */
  dailyActiveUsers: MetricsDay[];
  /** Users per country code. */
  usersByCountry: Record<string, number>;
  recentlyRegistered: U[];
  recentlyActive: U[];
  /** Users per sign-in method (`password`, `otp`, an OAuth provider id...). */
  loginMethods: { method: string; count: number }[];
}

/**
 * What an administrator reads about the project's users.
 *
 * @example
 * ```ts
 * const metrics = await adminApp.getMetrics();
 * ```
 */
export interface ProjectMetrics {
  /** The project's user metrics (totals, today and the 30 days before, countries, recent users). */
  getMetrics(): Promise<Metrics>;
}

/** `GET /internal/metrics`. */
function fetchMetrics(send: Send): Promise<Metrics<ServerUserData>> {
  return send({ method: 'GET', path: '/internal/metrics' }, decodeMetrics);
}

/** Decodes the answer of `GET /internal/metrics`. */
export function decodeMetrics(body: unknown): Metrics<ServerUserData> {
  return readFields<MetricsWire, Metrics<ServerUserData>>(body, (metrics) => ({
    totalUsers: metrics.number('total_users'),
    dailyUsers: metrics.list('daily_users', readDay),
    dailyActiveUsers: metrics.list('daily_active_users', readDay),
    usersByCountry: metrics.value('users_by_country', isCountMap, 'an object of numbers'),
    recentlyRegistered: metrics.list('recently_registered', readServerUser),
    recentlyActive: metrics.list('recently_active', readServerUser),
    loginMethods: metrics.list('login_methods', (entry) => ({
      method: entry.string('method'),
      count: entry.number('count'),
    })),
  }));
}

/** Mounts the metrics module on an audience with admin access. */
export function projectMetrics(scope: AudienceScope): ProjectMetrics {
  return { getMetrics: () => loadMetrics(scope.send) };
}

async function loadMetrics(send: Send): Promise<Metrics> {
  const metrics = await fetchMetrics(send);
  const serverUser = (user: ServerUserData) => createServerUser(user, send);
  return {
    ...metrics,
    recentlyRegistered: metrics.recentlyRegistered.map(serverUser),
    recentlyActive: metrics.recentlyActive.map(serverUser),
  };
}

/**
 * The project's user metrics, as a query of `AdminApp`; every write of the app re-reads it while subscribed.
 *
 * @example
 * ```ts
 * const { totalUsers } = await adminApp.load(metricsQuery);
 * ```
 */
export const metricsQuery: Query<Metrics, AdminScope> = { key: ['metrics'], load: ({ send }) => loadMetrics(send) };

function readDay(day: Fields<MetricsDayWire>): MetricsDay {
  return { date: day.string('date'), activity: day.number('activity') };
}

function isCountMap(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((count) => Number.isFinite(count))
  );
}
