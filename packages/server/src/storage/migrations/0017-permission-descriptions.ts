/**
 * The first permission definitions of every project described as Stack
 * describes them (`permissions/permission-store.ts`). Only a description still
 * as 0005 wrote it changes: one an administrator rewrote is theirs.
 */
export default `
UPDATE team_permission_definitions AS d
SET description = v.new_description
FROM (VALUES
  ('$update_team', 'Update the team''s name and picture', 'Update the team information'),
  ('$read_members', 'See the team''s members', 'Read and list the other members of the team'),
  ('$remove_members', 'Remove members from the team', 'Remove other members from the team'),
  ('$invite_members', 'Invite people to the team', 'Invite other users to the team'),
  ('admin', 'Team administrator', 'Default permission for team creators'),
  ('member', 'Team member', 'Default permission for team members')
) AS v (id, old_description, new_description)
WHERE d.id = v.id AND d.description = v.old_description;
`;
