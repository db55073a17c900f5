/**
 * The PostgreSQL that tests run against when one answers: `DATABASE_URL`, else
 * postgres://postgres@127.0.0.1:5432/test. Suites that must pass on both
 * backends use `postgresUp` to skip the PostgreSQL half when nothing answers.
 */
import { isPostgresReachable, testPostgresUrl } from '../testing/postgres.js';

export const postgresUrl = testPostgresUrl;

/** True when `postgresUrl` answers (checked once per test file). */
export const postgresUp = await isPostgresReachable(postgresUrl);
if (!postgresUp) console.warn(`PostgreSQL half skipped: nothing answers at ${postgresUrl} (set DATABASE_URL)`);
