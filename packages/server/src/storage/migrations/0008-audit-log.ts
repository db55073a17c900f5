/**
 * The audit log: one row per security event of a project (sign-ins and their
 * failures, sign-ups, password changes, sessions ended, keys made and revoked,
 * configuration changes, impersonation), with who did it and from where.
 * Rows are never changed: a trigger refuses every UPDATE, so a bug or a
 * stolen admin key cannot rewrite history through the service. Rows leave
 * only with their project or when the retention period is over
 * (`housekeeping.ts`). `id` orders the events and is the paging cursor.
 */
export default `
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  user_id uuid,
  actor_type text NOT NULL,
  actor_id text,
  ip text,
  user_agent text,
  data jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_project_idx ON audit_events (project_id, id DESC);
CREATE INDEX audit_events_user_idx ON audit_events (project_id, user_id, id DESC) WHERE user_id IS NOT NULL;
CREATE INDEX audit_events_type_idx ON audit_events (project_id, type, id DESC);
CREATE INDEX audit_events_time_idx ON audit_events (occurred_at);
CREATE FUNCTION audit_events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit events are never changed'; END $$;
CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_update();
`;
