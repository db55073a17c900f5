/**
 * E-mail: contact channels (a user's e-mail addresses; the primary one is
 * mirrored into `users.primary_email*`, and a sign-in address belongs to one
 * user per project), verification codes (stored hashed, single use,
 * attempt-limited), the e-mail outbox (written in the same transaction as the
 * code a mail carries, delivered by a worker with retries; in dev mode it is
 * also the dev mailbox), the projects' edited e-mail templates, and the
 * counters of rate-limited send endpoints.
 */
export default `
CREATE TABLE contact_channels (
  id uuid PRIMARY KEY,
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  type text NOT NULL CHECK (type = 'email'),
  value text NOT NULL,
  is_verified boolean NOT NULL DEFAULT false,
  is_primary boolean NOT NULL DEFAULT false,
  used_for_auth boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX contact_channels_value_idx ON contact_channels (project_id, user_id, type, lower(value));
CREATE UNIQUE INDEX contact_channels_primary_idx ON contact_channels (project_id, user_id, type) WHERE is_primary;
CREATE UNIQUE INDEX contact_channels_auth_idx ON contact_channels (project_id, type, lower(value)) WHERE used_for_auth;

INSERT INTO contact_channels (id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth, created_at)
SELECT gen_random_uuid(), project_id, id, 'email', primary_email, primary_email_verified, true,
       primary_email_auth_enabled, signed_up_at
FROM users WHERE primary_email IS NOT NULL;

DROP INDEX users_auth_email_idx;

CREATE TABLE verification_codes (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  purpose text NOT NULL,
  lookup_hash text NOT NULL UNIQUE,
  code_hash text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX verification_codes_expires_idx ON verification_codes (expires_at);

CREATE TABLE email_outbox (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  html text,
  text_body text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  transport text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX email_outbox_project_idx ON email_outbox (project_id, created_at);
CREATE INDEX email_outbox_recipient_idx ON email_outbox (lower(recipient), created_at);

CREATE TABLE email_templates (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type text NOT NULL,
  subject text NOT NULL,
  content jsonb NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, type)
);

CREATE TABLE rate_limit_counters (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_start);
`;
