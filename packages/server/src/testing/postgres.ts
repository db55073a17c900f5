/** Finding the PostgreSQL that tests may use: `DATABASE_URL`, else the local one on the default port. */
import pg from 'pg';

/** `DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/test. */
export const testPostgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * True when a PostgreSQL answers at `url` within 1.5 s. Suites that must pass
 * on both backends run their PostgreSQL half when it does, and say why not
 * when it does not.
 *
 * @example
 * const postgresUp = await isPostgresReachable(testPostgresUrl);
 * describe.skipIf(!postgresUp)('on PostgreSQL', () => { ... });
 */
export async function isPostgresReachable(url: string = testPostgresUrl): Promise<boolean> {
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
