/**
 * `DATABASE_URL` checked before anything connects, and connection failures
 * turned into one line that names the variable and what is wrong, never the
 * password.
 */
import { CliError, systemErrorCode } from './errors.js';

const example = 'postgres://user:password@host:5432/database';

/** The connection string when it is a PostgreSQL URL; a one-line error naming `DATABASE_URL` otherwise. */
export function checkDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`DATABASE_URL is not a URL: expected ${example}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new CliError(
      `DATABASE_URL is a ${url.protocol.replace(/:$/, '')}:// URL, but Latchkey needs PostgreSQL: ${example}`,
    );
  }
  return value;
}

/** Hides the password in a connection string before it is printed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

/** Why opening the database at `databaseUrl` failed, as one line naming `DATABASE_URL`. */
export function databaseError(error: unknown, databaseUrl: string): CliError {
  const url = new URL(databaseUrl);
  const host = `${url.hostname || 'localhost'}:${url.port || '5432'}`;
  const user = decoded(url.username) || '(default user)';
  const database = decoded(url.pathname.slice(1)) || user;
  const code = systemErrorCode(error);
  const secrets = [url.password, decoded(url.password)].filter(Boolean);
  const hide = (text: string) => secrets.reduce((shown, secret) => shown.split(secret).join('***'), text);
  const detail = hide((error instanceof Error && error.message) || String(error));
  switch (code) {
    case 'ECONNREFUSED':
      return new CliError(`DATABASE_URL: nothing accepts connections at ${host}; is PostgreSQL running there?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`DATABASE_URL: the host "${url.hostname}" does not resolve`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new CliError(`DATABASE_URL: cannot reach ${host} (${code})`);
    case '28P01':
    case '28000':
      return new CliError(
        `DATABASE_URL: PostgreSQL at ${host} refused user "${user}" (wrong user name or password, or no access)`,
      );
    case '3D000':
      return new CliError(`DATABASE_URL: PostgreSQL at ${host} has no database "${database}"`);
    default:
      return new CliError(`DATABASE_URL: cannot open the database at ${redactUrl(databaseUrl)}: ${detail}`);
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
