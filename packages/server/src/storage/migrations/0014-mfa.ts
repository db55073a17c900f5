/**
 * Multi-factor authentication (`mfa/`): a user's TOTP secret, sealed with the
 * master secret and bound to the user, with the last time step a code was
 * accepted for (a code is good once), and a secret being enrolled that is not
 * active until the user proves it with a code. `users.requires_totp_mfa`
 * stays the flag the user view shows, written in the same transaction as the
 * active secret. Recovery codes are stored as hashes, each usable once.
 * Deleting the user deletes both.
 */
export default `
CREATE TABLE user_mfa (
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  totp_secret_sealed text,
  pending_totp_secret_sealed text,
  last_totp_step integer,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id),
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);

CREATE TABLE mfa_recovery_codes (
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (project_id, user_id, code_hash),
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
`;
