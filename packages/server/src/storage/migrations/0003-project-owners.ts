/**
 * Owned projects and metrics: which users of the `internal` project own which
 * projects (their access tokens are admin access tokens for those, wire-protocol
 * §7), the country a user last signed in from (from a trusted header, when the
 * service is configured with one), and one row per user per day of activity, so
 * daily active users are counted in SQL for any past day.
 */
export default `
CREATE TABLE project_owners (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_project_id text NOT NULL DEFAULT 'internal' CHECK (user_project_id = 'internal'),
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id),
  FOREIGN KEY (user_project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX project_owners_user_idx ON project_owners (user_id);

ALTER TABLE users ADD COLUMN country_code text;
CREATE INDEX users_last_active_idx ON users (project_id, last_active_at);

CREATE TABLE user_activity_days (
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  day date NOT NULL,
  PRIMARY KEY (project_id, day, user_id),
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX user_activity_days_user_idx ON user_activity_days (project_id, user_id);
`;
