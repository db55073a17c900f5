/**
 * Every change to a user or a team row is announced on the change feed, so
 * the instances that cache users (`users/user-cache.ts`) drop them within
 * moments of the commit. Triggers rather than calls in the stores: a write no
 * store foresaw (a cascade from a deleted team or project, a future store, an
 * operator's SQL) is announced all the same. One notification per statement
 * names up to 150 rows (under PostgreSQL's 8000-byte payload limit); a
 * statement that touched more names none, which means "any of them".
 * PostgreSQL sends the notification when the transaction commits, and not at
 * all when it rolls back.
 */
export default `
CREATE FUNCTION latchkey_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE touched bigint; ids json; BEGIN SELECT count(*), json_agg(id) INTO touched, ids FROM (SELECT id FROM changed_rows LIMIT 151) AS named; IF touched > 0 THEN PERFORM pg_notify('latchkey_changes', json_build_object('schema', TG_TABLE_SCHEMA, TG_ARGV[0], CASE WHEN touched > 150 THEN NULL ELSE ids END)::text); END IF; RETURN NULL; END $$;
CREATE TRIGGER users_updated_announce AFTER UPDATE ON users REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION latchkey_rows_changed('users');
CREATE TRIGGER users_deleted_announce AFTER DELETE ON users REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION latchkey_rows_changed('users');
CREATE TRIGGER teams_updated_announce AFTER UPDATE ON teams REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION latchkey_rows_changed('teams');
CREATE TRIGGER teams_deleted_announce AFTER DELETE ON teams REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION latchkey_rows_changed('teams');
`;
