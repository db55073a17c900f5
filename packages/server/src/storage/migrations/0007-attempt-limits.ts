/**
 * Failed attempts (wrong passwords) per key — an account, or a client address
 * in a project — with the time of the last one, from which the growing
 * back-off is computed (`rate-limit/attempt-limits.ts`). Kept in the database
 * so every instance sharing it enforces the same back-off. Keys hold hashes
 * of e-mail addresses, never the addresses.
 */
export default `
CREATE TABLE attempt_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL
);
CREATE INDEX attempt_failures_last_idx ON attempt_failures (last_failure_at);
`;
