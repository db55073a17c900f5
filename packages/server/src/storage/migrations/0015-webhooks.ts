/**
 * Webhooks (`webhooks/`): a project's endpoints, the messages an action's
 * events become (written in the action's transaction, one per subscribed
 * endpoint, so none exists for a change that rolled back and none is lost
 * for one that committed), and each delivery attempt.
 *
 * An endpoint's signing secret is sealed under the master secret; after a
 * rotation the previous one stays until `previous_secret_expires_at`, and
 * both sign meanwhile. `event_types` null means every type. A message keeps
 * the body it is (or will be) sent with, so a retry or a replay sends the
 * same bytes under the same `webhook-id`; bodies go after the retention
 * window. An attempt keeps the response's status, latency and an excerpt.
 * Inserting messages tells the delivery workers of every instance on commit
 * (the change feed's channel, as mail does), whatever statement inserts them.
 * `seq` orders an endpoint's messages as they were written: the events of
 * one action share its time, and an endpoint gets them in the order they
 * happened.
 */
export default `
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[],
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id, created_at);

CREATE TABLE webhook_messages (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  event_data jsonb NOT NULL,
  payload jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_response_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);
CREATE INDEX webhook_messages_due_idx ON webhook_messages (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_messages_endpoint_idx ON webhook_messages (endpoint_id, seq);
CREATE INDEX webhook_messages_unfinished_idx ON webhook_messages (endpoint_id, seq) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_messages_project_idx ON webhook_messages (project_id, created_at);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  message_id uuid NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  project_id text NOT NULL,
  attempted_at timestamptz NOT NULL,
  response_status integer,
  latency_ms integer NOT NULL,
  response_excerpt text,
  error text
);
CREATE FUNCTION latchkey_webhook_messages_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM added_rows) THEN PERFORM pg_notify('latchkey_changes', json_build_object('schema', TG_TABLE_SCHEMA, 'webhook', true)::text); END IF; RETURN NULL; END $$;
CREATE TRIGGER webhook_messages_added_announce AFTER INSERT ON webhook_messages REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION latchkey_webhook_messages_added();
CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id, attempted_at);
`;
