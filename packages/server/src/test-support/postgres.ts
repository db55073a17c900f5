/**
 * The PostgreSQL that tests run against when one answers: `DATABASE_URL`, else
 * postgres://postgres@127.0.0.1:5432/test. Suites that must pass on both
 * backends use `postgresUp` to skip the PostgreSQL half when nothing answers.
 */
import pg from 'pg';

export const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True when `postgresUrl` answers (checked once per test file). */
export const postgresUp = await reachable(postgresUrl);
if (!postgresUp) console.warn(`PostgreSQL half skipped: nothing answers at ${postgresUrl} (set DATABASE_URL)`);
