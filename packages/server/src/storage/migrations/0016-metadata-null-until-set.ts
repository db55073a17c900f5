/**
 * Metadata is null until set: a new user's or team's three metadata columns
 * start as JSON `null` (the insert writes it; the default says so too). The
 * columns stay NOT NULL, so null has one spelling, the JSON one, whether a
 * row never had metadata or a caller set `null`.
 *
 * Rows written before this migration keep the `{}` they were given: nothing
 * tells a default `{}` from one a caller set, so none is rewritten.
 */
export default `
ALTER TABLE users ALTER COLUMN client_metadata SET DEFAULT 'null'::jsonb;
ALTER TABLE users ALTER COLUMN client_read_only_metadata SET DEFAULT 'null'::jsonb;
ALTER TABLE users ALTER COLUMN server_metadata SET DEFAULT 'null'::jsonb;
ALTER TABLE teams ALTER COLUMN client_metadata SET DEFAULT 'null'::jsonb;
ALTER TABLE teams ALTER COLUMN client_read_only_metadata SET DEFAULT 'null'::jsonb;
ALTER TABLE teams ALTER COLUMN server_metadata SET DEFAULT 'null'::jsonb;
`;
