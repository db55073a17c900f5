import { readFileSync } from 'node:fs';
import { runDev } from './commands/dev.js';
import { runExport } from './commands/export.js';
import { runImport } from './commands/import.js';
import { runKeys } from './commands/keys.js';
import { runMigrate } from './commands/migrate.js';
import { runOwners } from './commands/owners.js';
import { runProjects } from './commands/projects.js';
import { runRotateSecret } from './commands/rotate-secret.js';
import { runStart } from './commands/start.js';
import { runUsers } from './commands/users.js';
import { runWebhooks } from './commands/webhooks.js';
import { type CliContext, processContext } from './internal/context.js';
import { CliError, UsageError } from './internal/errors.js';

export const usage = `Usage: latchkey <command> [options]

Commands:
  dev       run the service locally on an embedded database, with dev keys
  start     run the service in production mode against DATABASE_URL
  migrate   apply database migrations and exit
  owners    create an owner account (a dashboard user who owns projects)
  projects  list projects, create one with its keys
  keys      list, create and revoke a project's API keys
  users     list and create a project's users
  import    import users from another system's export (or a latchkey export)
  export    write a project's users and teams in the generic format
  webhooks  list and create a project's webhook endpoints, see and replay deliveries
  rotate-secret
            move a database to a new master secret

Options:
  -h, --help     show help (also: latchkey <command> --help)
  -v, --version  show the version
`;

const commands: Record<string, (args: string[], context: CliContext) => Promise<number>> = {
  dev: runDev,
  start: runStart,
  migrate: runMigrate,
  owners: runOwners,
  projects: runProjects,
  keys: runKeys,
  users: runUsers,
  import: runImport,
  export: runExport,
  webhooks: runWebhooks,
  'rotate-secret': runRotateSecret,
};

/**
 * Runs the `latchkey` command line and resolves with the exit code. Long-running
 * commands resolve after SIGINT/SIGTERM (or `context.signal`) stopped them.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: string[], context: Partial<CliContext> = {}): Promise<number> {
  const ctx = processContext(context);
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
      (name === undefined ? ctx.stderr : ctx.stdout).write(usage);
      return name === undefined ? 2 : 0;
    }
    if (name === '-v' || name === '--version') {
      ctx.stdout.write(`${version()}\n`);
      return 0;
    }
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!command) throw new UsageError(`unknown command "${name}"`);
    return await command(rest, ctx);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    ctx.stderr.write(`latchkey: ${error.message}\n`);
    if (error instanceof UsageError) {
      ctx.stderr.write(`Run \`latchkey ${error.command ? `${error.command} ` : ''}--help\` for usage.\n`);
    }
    return error.exitCode;
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
