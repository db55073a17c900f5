/** First schema: projects, API key sets, signing keys, users and sessions. */
export default `
CREATE TABLE projects (
  id text PRIMARY KEY,
  display_name text NOT NULL,
  description text,
  created_at timestamptz NOT NULL,
  is_production_mode boolean NOT NULL DEFAULT false,
  config jsonb NOT NULL DEFAULT '{}'::jsonb
);

CREATE TABLE api_key_sets (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  description text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  manually_revoked_at timestamptz,
  publishable_client_key_hash text UNIQUE,
  publishable_client_key_last_four text,
  secret_server_key_hash text UNIQUE,
  secret_server_key_last_four text,
  super_secret_admin_key_hash text UNIQUE,
  super_secret_admin_key_last_four text
);
CREATE INDEX api_key_sets_project_idx ON api_key_sets (project_id);

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  public_jwk jsonb NOT NULL,
  private_jwk_encrypted text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX signing_keys_one_active_idx ON signing_keys (project_id) WHERE active;

CREATE TABLE users (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  display_name text,
  primary_email text,
  primary_email_verified boolean NOT NULL DEFAULT false,
  primary_email_auth_enabled boolean NOT NULL DEFAULT false,
  profile_image_url text,
  password_hash text,
  client_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_read_only_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  server_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  signed_up_at timestamptz NOT NULL,
  last_active_at timestamptz NOT NULL,
  selected_team_id uuid,
  requires_totp_mfa boolean NOT NULL DEFAULT false,
  otp_auth_enabled boolean NOT NULL DEFAULT false,
  passkey_auth_enabled boolean NOT NULL DEFAULT false,
  UNIQUE (project_id, id)
);
CREATE UNIQUE INDEX users_auth_email_idx ON users (project_id, lower(primary_email)) WHERE primary_email_auth_enabled;
CREATE INDEX users_signed_up_idx ON users (project_id, signed_up_at);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  refresh_token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX sessions_user_idx ON sessions (project_id, user_id);
`;
