/**
 * Refresh-token rotation (`sessions/refresh-rotation.ts`): a session keeps the
 * hash of the refresh token it replaced last and when, so that the replaced
 * token still works for a short grace window (two tabs refreshing at once)
 * and its use after that is recognised as a reuse, which ends the session.
 * The index finds a session by its previous token as fast as by its current one.
 */
export default `
ALTER TABLE sessions ADD COLUMN previous_refresh_token_hash text;
ALTER TABLE sessions ADD COLUMN refresh_token_rotated_at timestamptz;
CREATE UNIQUE INDEX sessions_previous_refresh_token_idx ON sessions (previous_refresh_token_hash);
`;
