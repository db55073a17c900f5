/**
 * Teams: teams, memberships (the member's team profile lives on the
 * membership row), permission definitions (the five system permissions are
 * rows too, so every reference is a foreign key), which definitions contain
 * which (a directed acyclic graph, kept acyclic by the service), the
 * permissions each member holds in a team, and invitations (verification
 * codes bound to a team).
 *
 * The foreign keys carry the deletion rules: deleting a team removes its
 * memberships, their profiles and permissions, and its invitations; deleting
 * a user removes their memberships; renaming a definition renames it in every
 * grant and containment; deleting one removes those. A deleted team's
 * invitations stop being invitations at once (their team becomes null; the
 * code's hash stays until it expires, so the link answers TEAM_NOT_FOUND
 * rather than "no such code"). A user's selected team
 * must be a team they are a member of, and becomes null when they leave it or
 * it is deleted (PostgreSQL 15's column list for SET NULL).
 */
export default `
CREATE TABLE teams (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  display_name text NOT NULL,
  profile_image_url text,
  client_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_read_only_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  server_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  UNIQUE (project_id, id)
);
CREATE INDEX teams_project_idx ON teams (project_id, created_at);

CREATE TABLE team_members (
  project_id text NOT NULL,
  team_id uuid NOT NULL,
  user_id uuid NOT NULL,
  display_name text,
  profile_image_url text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, team_id, user_id),
  FOREIGN KEY (project_id, team_id) REFERENCES teams (project_id, id) ON DELETE CASCADE,
  FOREIGN KEY (project_id, user_id) REFERENCES users (project_id, id) ON DELETE CASCADE,
  UNIQUE (project_id, user_id, team_id)
);

ALTER TABLE users ADD CONSTRAINT users_selected_team_fk
  FOREIGN KEY (project_id, id, selected_team_id) REFERENCES team_members (project_id, user_id, team_id)
  ON DELETE SET NULL (selected_team_id);

CREATE TABLE team_permission_definitions (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id text NOT NULL,
  description text,
  is_system boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, id)
);

CREATE TABLE team_permission_inclusions (
  project_id text NOT NULL,
  permission_id text NOT NULL,
  contained_id text NOT NULL,
  PRIMARY KEY (project_id, permission_id, contained_id),
  FOREIGN KEY (project_id, permission_id) REFERENCES team_permission_definitions (project_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE,
  FOREIGN KEY (project_id, contained_id) REFERENCES team_permission_definitions (project_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE,
  CHECK (permission_id <> contained_id)
);
CREATE INDEX team_permission_inclusions_contained_idx ON team_permission_inclusions (project_id, contained_id);

CREATE TABLE team_member_permissions (
  project_id text NOT NULL,
  team_id uuid NOT NULL,
  user_id uuid NOT NULL,
  permission_id text NOT NULL,
  PRIMARY KEY (project_id, team_id, user_id, permission_id),
  FOREIGN KEY (project_id, team_id, user_id) REFERENCES team_members (project_id, team_id, user_id) ON DELETE CASCADE,
  FOREIGN KEY (project_id, permission_id) REFERENCES team_permission_definitions (project_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX team_member_permissions_permission_idx ON team_member_permissions (project_id, permission_id);

ALTER TABLE verification_codes ADD COLUMN team_id uuid;
ALTER TABLE verification_codes ADD CONSTRAINT verification_codes_team_fk
  FOREIGN KEY (project_id, team_id) REFERENCES teams (project_id, id) ON DELETE SET NULL (team_id);
CREATE INDEX verification_codes_team_idx ON verification_codes (project_id, team_id) WHERE team_id IS NOT NULL;

INSERT INTO team_permission_definitions (project_id, id, description, is_system, created_at)
SELECT p.id, s.id, s.description, true, now()
FROM projects p CROSS JOIN (VALUES
  ('$update_team', 'Update the team''s name and picture'),
  ('$delete_team', 'Delete the team'),
  ('$read_members', 'See the team''s members'),
  ('$remove_members', 'Remove members from the team'),
  ('$invite_members', 'Invite people to the team')
) AS s (id, description);

INSERT INTO team_permission_definitions (project_id, id, description, is_system, created_at)
SELECT p.id, d.id, d.description, false, now()
FROM projects p CROSS JOIN (VALUES ('admin', 'Team administrator'), ('member', 'Team member')) AS d (id, description);

INSERT INTO team_permission_inclusions (project_id, permission_id, contained_id)
SELECT p.id, i.permission_id, i.contained_id
FROM projects p CROSS JOIN (VALUES
  ('admin', '$update_team'), ('admin', '$delete_team'), ('admin', '$read_members'),
  ('admin', '$remove_members'), ('admin', '$invite_members'),
  ('member', '$read_members'), ('member', '$invite_members')
) AS i (permission_id, contained_id);

UPDATE projects SET config = config || '{"team_creator_default_permissions": [{"id": "admin"}]}'::jsonb
WHERE NOT (config ? 'team_creator_default_permissions') OR config->'team_creator_default_permissions' = '[]'::jsonb;
UPDATE projects SET config = config || '{"team_member_default_permissions": [{"id": "member"}]}'::jsonb
WHERE NOT (config ? 'team_member_default_permissions') OR config->'team_member_default_permissions' = '[]'::jsonb;
`;
