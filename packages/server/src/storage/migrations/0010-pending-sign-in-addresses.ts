/**
 * A sign-in address a client asked for but has not proven yet. A client-added
 * (or client-changed) address that should sign in keeps `used_for_auth` off,
 * so it neither signs anybody in nor takes the project's one slot for that
 * address, and `auth_pending` on; verifying its mailbox turns the first into
 * the second. The wire shows `used_for_auth` as the client asked.
 */
export default `
ALTER TABLE contact_channels ADD COLUMN auth_pending boolean NOT NULL DEFAULT false;
`;
