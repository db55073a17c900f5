/**
 * Users and teams brought from another system keep their id there as
 * `external_id`, unique in the project: an import run again (or resumed after
 * an interruption) skips what it already wrote, and memberships of a later run
 * find the teams an earlier one imported.
 */
export default `
ALTER TABLE users ADD COLUMN external_id text;
CREATE UNIQUE INDEX users_external_id_idx ON users (project_id, external_id) WHERE external_id IS NOT NULL;
ALTER TABLE teams ADD COLUMN external_id text;
CREATE UNIQUE INDEX teams_external_id_idx ON teams (project_id, external_id) WHERE external_id IS NOT NULL;
`;
