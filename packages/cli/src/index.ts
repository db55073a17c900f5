/**
 * latchkey: the command line of the Latchkey auth service (`latchkey dev`,
 * `latchkey start`, `latchkey migrate`), also usable as a library.
 */

export { type DevOptions, type DevService, runDev, startDev } from './commands/dev.js';
export { runMigrate } from './commands/migrate.js';
export { runStart, type StartOptions, startProduction } from './commands/start.js';
export type { CliContext } from './internal/context.js';
export type { DevProject } from './internal/data-dir.js';
export { CliError, UsageError } from './internal/errors.js';
export { type DevInfo, devKeyRows, devKeysNotice, formatDevInfo, formatRows, ownerBlock } from './internal/format.js';
export { main } from './main.js';
