/**
 * What a source reads besides its main export file, each the text of a file
 * the user names on the command line. A parser takes these as its second
 * argument; sources that need none ignore it.
 */
export interface SourceOptions {
  /** Supabase: the `auth.identities` table, CSV or JSON (`--identities <file>`). */
  identities?: string;
  /** Better Auth: the `account` table, CSV or JSON (`--accounts <file>`). */
  accounts?: string;
  /** Auth0: the password-hash export, NDJSON (`--password-hashes <file>`). */
  passwordHashes?: string;
  /**
   * Firebase: the project's password hash parameters (`--hash-config <file>`),
   * the console's `hash_config { ... }` block or a JSON object of its keys.
   */
  hashConfig?: string;
}
