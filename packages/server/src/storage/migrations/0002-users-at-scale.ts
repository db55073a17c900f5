/**
 * Users at scale and sessions a person can review: keyset pagination in
 * sign-up order, substring search on e-mail and display name (trigram
 * indexes), and where, with what and for whom each session was opened.
 *
 * pg_trgm is installed once per database, in `public` (every schema's indexes
 * name its operator class there), under a database-wide advisory lock so two
 * schemas migrating at once do not both create it. The GIN indexes take new
 * rows at once (`fastupdate = off`) instead of in a pending list that every
 * search would scan: users sign up far less often than they are searched.
 */
export default `
ALTER TABLE sessions ADD COLUMN ip text;
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN is_impersonation boolean NOT NULL DEFAULT false;

DROP INDEX users_signed_up_idx;
CREATE INDEX users_signed_up_idx ON users (project_id, signed_up_at, id);

SELECT pg_advisory_xact_lock(1280004692);
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX users_email_search_idx ON users USING gin (lower(primary_email) public.gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX users_display_name_search_idx ON users USING gin (lower(display_name) public.gin_trgm_ops) WITH (fastupdate = off);
`;
