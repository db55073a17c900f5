/**
 * Where a session was opened and where an audit event came from, as a
 * country: the ISO 3166 alpha-2 code of the trusted country header
 * (`ServiceOptions.countryHeader`), null when none is configured or sent.
 * The signed-in person's Sessions and Security activity show it. Rows
 * written before stay null: nothing recorded where they came from.
 */
export default `
ALTER TABLE sessions ADD COLUMN country text;
ALTER TABLE audit_events ADD COLUMN country text;
`;
