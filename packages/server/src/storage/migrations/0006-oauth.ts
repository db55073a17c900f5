/**
 * OAuth: the provider accounts connected to users. An account is one
 * provider's subject (`account_id`), connected to one user of the project;
 * a user has at most one account per provider. The provider's tokens are
 * stored sealed with the master secret, bound to the account. Deleting the
 * user deletes their accounts.
 *
 * `users.oauth_providers` is the user's connected accounts as the user view
 * shows them (`[{id, account_id, email}]`), rewritten from `oauth_accounts` in
 * the transaction of every change to them, so reading a user stays one query.
 *
 * The OAuth flows themselves (the service's state at the provider and the
 * authorization code given to the app) are verification codes of their own
 * purposes: hashed, bound to their project, short-lived and single-use.
 */
export default `
CREATE TABLE oauth_accounts (
  project_id text NOT NULL,
  provider_id text NOT NULL,
  account_id text NOT NULL,
  user_id uuid NOT NULL,
  email text,
  access_token_sealed text,
  refresh_token_sealed text,
  access_token_expires_at timestamptz,
  scopes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, provider_id, account_id),
  UNIQUE (project_id, user_id, provider_id),
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE
);

ALTER TABLE users ADD COLUMN oauth_providers jsonb NOT NULL DEFAULT '[]'::jsonb;
`;
