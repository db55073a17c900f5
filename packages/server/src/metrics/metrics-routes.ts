/**
 * `GET /internal/metrics` (wire-protocol §15.9), admin access: the project's
 * user count, sign-ups and active users per day, today and the 30 days before (UTC,
 * every day present, today last, by the service clock), users per country,
 * the users who signed up and were active last, and users per sign-in method.
 * Every figure is an aggregate the database computes.
 */
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { attachSelectedTeams, countUsers } from '../users/user-store.js';
import { serverUserSchema, serverUserView } from '../users/user-views.js';
import { utcDay } from './activity.js';
import {
  countActiveUsersByDay,
  countSignUpsByDay,
  countUsersByCountry,
  countUsersByLoginMethod,
  type DayCount,
  findRecentlyActive,
  findRecentlyRegistered,
} from './metrics-store.js';

/** Days in each daily series: today and the 30 days before it, as the original backend. */
const metricsDays = 31;
/** Users in each of the "recently" lists. */
const recentUsersListed = 5;

const dayMillis = 24 * 3600 * 1000;
const daySeries = z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), activity: z.number().int() }));

const metricsAnswer = z
  .object({
    total_users: z.number().int().nonnegative(),
    daily_users: daySeries,
    daily_active_users: daySeries,
    users_by_country: z.record(z.string(), z.number().int()),
    recently_registered: z.array(serverUserSchema),
    recently_active: z.array(serverUserSchema),
    login_methods: z.array(z.object({ method: z.string(), count: z.number().int().nonnegative() })),
  })
  .meta({ id: 'Metrics' });

/** The `metricsDays` days ending today, oldest first, each with its count or 0. */
function series(days: string[], counts: DayCount[]): { date: string; activity: number }[] {
  const byDay = new Map(counts.map((entry) => [entry.date, entry.count]));
  return days.map((date) => ({ date, activity: byDay.get(date) ?? 0 }));
}

const getMetrics = defineRoute({
  method: 'GET',
  path: '/internal/metrics',
  tag: 'metrics',
  summary:
    "The project's user metrics: totals, today and the 30 days before (UTC) of sign-ups and active users, countries, recent users.",
  access: 'admin',
  answer: metricsAnswer,
  errors: [],
  handler: async ({ auth, deps }) => {
    const projectId = auth.project.id;
    const today = Date.parse(utcDay(deps.clock.now()));
    const days = Array.from({ length: metricsDays }, (_, index) =>
      utcDay(today - (metricsDays - 1 - index) * dayMillis),
    );
    const [total, signUps, active, byCountry, registered, recentlyActive, loginMethods] = await Promise.all([
      countUsers(deps.db, projectId),
      countSignUpsByDay(deps.db, projectId, days[0]!),
      countActiveUsersByDay(deps.db, projectId, days[0]!),
      countUsersByCountry(deps.db, projectId),
      findRecentlyRegistered(deps.db, projectId, recentUsersListed),
      findRecentlyActive(deps.db, projectId, recentUsersListed),
      countUsersByLoginMethod(deps.db, projectId),
    ]);
    return {
      total_users: total,
      daily_users: series(days, signUps),
      daily_active_users: series(days, active),
      users_by_country: byCountry,
      recently_registered: (await attachSelectedTeams(deps.db, registered)).map(serverUserView),
      recently_active: (await attachSelectedTeams(deps.db, recentlyActive)).map(serverUserView),
      login_methods: loginMethods,
    };
  },
});

export const metricsRoutes: Route[] = [getMetrics];
