/**
 * Users written straight into a PostgreSQL schema for the benchmarks at
 * scale (`users-at-scale.mjs`, `dashboard-users.mjs`): `count` users in one
 * `INSERT … SELECT generate_series` (not through the API), `user<i>` and
 * `user<i>@example.com`, every third verified, signed up 97 ms apart from
 * 2020-01-01, each with its sign-in address as a contact channel; then the
 * planner's statistics are refreshed.
 */
import pg from 'pg';

/**
 * @param {{ databaseUrl: string, schema: string, projectId: string, count: number }} options
 */
export async function seedUsers({ databaseUrl, schema, projectId, count }) {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema},public` });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO users (id, project_id, display_name, primary_email, primary_email_verified,
         primary_email_auth_enabled, signed_up_at, last_active_at)
       SELECT gen_random_uuid(), $1, 'User ' || i, 'user' || i || '@example.com', i % 3 = 0, true,
         timestamp with time zone '2020-01-01 00:00:00+00' + i * interval '1 millisecond' * 97,
         timestamp with time zone '2020-01-01 00:00:00+00' + i * interval '1 millisecond' * 97
       FROM generate_series(1, $2::int) AS i`,
      [projectId, count],
    );
    // Contact channels are the truth of sign-in (migration 0004): one primary, sign-in address per user.
    await client.query(
      `INSERT INTO contact_channels (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth,
         created_at)
       SELECT gen_random_uuid(), project_id, id, 'email', primary_email, primary_email_verified, true, true, signed_up_at
       FROM users WHERE project_id = $1`,
      [projectId],
    );
    await client.query('ANALYZE users');
    await client.query('ANALYZE contact_channels');
  } finally {
    await client.end();
  }
  console.error(
    `  seeded ${count.toLocaleString('en')} users in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
