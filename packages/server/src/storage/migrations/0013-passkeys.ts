/**
 * Passkeys (WebAuthn credentials, `passkeys/`): one row per credential a user
 * registered. `credential_id` is the authenticator's id for it (base64url),
 * unique in its project: a sign-in names the credential, never the user.
 * `public_key` is the COSE key (base64url) the service verifies assertions
 * with; `counter` the last signature counter seen (a uint32, hence bigint).
 * Deleting the user deletes their passkeys.
 */
export default `
CREATE TABLE passkeys (
  id uuid PRIMARY KEY,
  project_id text NOT NULL,
  user_id uuid NOT NULL,
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]'::jsonb,
  name text NOT NULL,
  aaguid text NOT NULL,
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  UNIQUE (project_id, credential_id),
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);
CREATE INDEX passkeys_user_idx ON passkeys (project_id, user_id, created_at);
`;
