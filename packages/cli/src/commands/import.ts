import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ImportCounts, ImportItem, ImportNotice } from '@latchkey/server';
import { importOverHttp } from '../import/over-http.js';
import { parseLatchkeyLines } from '../import/sources/latchkey.js';
import type { SourceOptions } from '../import/sources/options.js';
import { sourceNamed, sources } from '../import/sources.js';
import { fingerprint, readState, removeState, statePath, writeState } from '../import/state.js';
import { isProblem, lineOf, type SourceItem } from '../import/types.js';
import { httpAdmin } from '../internal/admin-target.js';
import { parseCommandLine } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { CliError, UsageError } from '../internal/errors.js';
import { localFlags, localHelp, openLocal } from '../internal/local-target.js';
import { openProject, secretOf } from '../internal/project-storage.js';
import { loadServer } from '../internal/service.js';

const importUsage = `Usage: latchkey import --from <source> <file> [options]

Imports users (with their password hashes, e-mail addresses, OAuth accounts,
TOTP secrets, teams and memberships) from another system's export file, in
batches, straight into the database, or through a running service's admin
API with --api-url. Imported users sign in with their old passwords; the
first sign-in re-hashes them. See docs/guides/import-export.md.

      --from <source>    ${Object.keys(sources).join(', ')}
      --project <id>     the project (default with --data-dir: the development
                         project; required with DATABASE_URL and --api-url)
      --dry-run          check every record against the project, write nothing
      --resume           continue an interrupted run of the same file after the
                         last batch it wrote (a run again skips what exists anyway)
      --identities <file>       supabase: the auth.identities table (CSV or JSON)
      --accounts <file>         better-auth: the account table (CSV or JSON)
      --password-hashes <file>  auth0: the password-hash export (NDJSON)
      --hash-config <file>      firebase: the project's password hash parameters
${localHelp.replace('print JSON instead of text', 'progress and the report as JSON lines').replace(
  '      --json',
  `      --api-url <url>    a running service instead, through its admin API
                         (OAuth accounts and source ids need the database)
      --admin-key <key>  with --api-url: the project's super secret admin key
                         (or set LATCHKEY_ADMIN_KEY, which stays out of ps)
      --json`,
)}  LATCHKEY_SECRET        master secret, to seal TOTP secrets (with --data-dir:
                         else the directory's secret file)
  -h, --help             show this help
`;

const flags = {
  ...localFlags,
  from: { type: 'string' },
  project: { type: 'string' },
  'dry-run': { type: 'boolean' },
  resume: { type: 'boolean' },
  identities: { type: 'string' },
  accounts: { type: 'string' },
  'password-hashes': { type: 'string' },
  'hash-config': { type: 'string' },
  'api-url': { type: 'string' },
  'admin-key': { type: 'string' },
} as const;

/** The side files a source reads besides its main file, by flag. */
const sideFiles = {
  identities: 'identities',
  accounts: 'accounts',
  'password-hashes': 'passwordHashes',
  'hash-config': 'hashConfig',
} as const;

type SkipCounts = Record<string, number>;

/** `latchkey import`. */
export async function runImport(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('import', args, flags, 1);
  if (values.help) {
    context.stdout.write(importUsage);
    return 0;
  }
  const [path] = positionals;
  if (!values.from) throw new UsageError('needs --from <source>', 'import');
  const parse = sourceNamed(values.from);
  if (!parse) throw new UsageError(`unknown source "${values.from}": use ${Object.keys(sources).join(', ')}`, 'import');
  if (path === undefined) throw new UsageError('needs the file to import', 'import');
  const file = resolve(context.cwd, path);
  try {
    await access(file);
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
  const { sha256, lines: totalLines } = await fingerprint(file).catch((error: unknown) => {
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  });

  if (values['api-url'] !== undefined) {
    if (values['data-dir'] !== undefined)
      throw new UsageError('pass either --data-dir or --api-url, not both', 'import');
    if (values.schema !== undefined) throw new UsageError('--schema goes with DATABASE_URL, not --api-url', 'import');
  } else if (values['admin-key'] !== undefined) {
    throw new UsageError('--admin-key goes with --api-url', 'import');
  }
  const remote = values['api-url'] !== undefined ? httpAdmin('import', values, context) : null;
  const local = remote ? null : await openLocal('import', values, context);
  try {
    const projectId = local ? await openProject(local, values.project) : remote!.projectId;
    const secret = local ? await secretOf(local, context) : undefined;
    const saved = values.resume ? await readState(file) : null;
    const resumeAfter =
      saved && saved.sha256 === sha256 && saved.project === projectId && saved.source === values.from
        ? saved.last_line
        : 0;
    if (values.resume && resumeAfter === 0) {
      context.stderr.write('latchkey: no interrupted run of this file to resume: starting from the top\n');
    }

    const json = values.json === true;
    const dryRun = values['dry-run'] === true;
    const out = (text: string) => context.stdout.write(text);
    const tty = !json && (context.stderr as { isTTY?: boolean }).isTTY === true;
    const problems: SkipCounts = {};
    let problemCount = 0;
    const shown = { notices: 0 };
    const maxShown = 1_000;
    const notice = (item: ImportNotice) => {
      if (json) out(`${JSON.stringify({ type: item.kind, ...item })}\n`);
      else if (shown.notices++ < maxShown) {
        out(
          `line ${item.line}: ${item.kind === 'skipped' ? `skipped (${(item.reason ?? '').replace(/_/g, ' ')})` : 'warning'}: ${item.message}\n`,
        );
      }
    };

    const options: SourceOptions = {};
    for (const [flag, key] of Object.entries(sideFiles)) {
      const side = values[flag as keyof typeof sideFiles];
      if (side === undefined) continue;
      options[key] = await readFile(resolve(context.cwd, side), 'utf8').catch((error: unknown) => {
        throw new CliError(`cannot read ${side}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    const text = values.from === 'latchkey' ? null : await readFile(file, 'utf8');
    const raw: AsyncIterable<SourceItem> = text === null ? parseLatchkeyLines(readLines(file)) : parse(text, options);

    async function* records(): AsyncIterable<ImportItem> {
      let ordinal = 0;
      for await (const item of raw) {
        ordinal++;
        if (isProblem(item)) {
          if (item.line !== 0 && item.line <= resumeAfter) continue;
          const reason = item.problem.startsWith('oversized')
            ? 'oversized_field'
            : item.problem.startsWith('unsupported hash')
              ? 'unsupported_hash'
              : 'malformed';
          problems[reason] = (problems[reason] ?? 0) + 1;
          problemCount++;
          notice({ line: item.line, kind: 'skipped', reason, message: item.problem });
          continue;
        }
        const line = lineOf(item) ?? ordinal;
        if (line <= resumeAfter) continue;
        yield { record: item, line };
      }
    }

    const started = performance.now();
    let lastDraw = 0;
    const onBatch = (counts: ImportCounts) => {
      const seconds = (performance.now() - started) / 1000;
      const done = counts.last_line - resumeAfter;
      const rate = seconds > 0 ? done / seconds : 0;
      const left = Math.max(0, totalLines - counts.last_line);
      const eta = rate > 0 ? left / rate : 0;
      if (json) {
        out(
          `${JSON.stringify({ type: 'progress', line: counts.last_line, lines: totalLines, users_imported: counts.users_imported, skipped: counts.skipped + problemCount, lines_per_second: Math.round(rate), eta_seconds: Math.round(eta) })}\n`,
        );
      } else if (tty && performance.now() - lastDraw > 200) {
        lastDraw = performance.now();
        const percent = totalLines > 0 ? Math.floor((counts.last_line / totalLines) * 100) : 100;
        const bar = '#'.repeat(Math.floor(percent / 5)).padEnd(20, '.');
        context.stderr.write(
          `\r[${bar}] ${percent}%  ${counts.users_imported} imported  ${Math.round(rate)}/s  ETA ${duration(eta)}   `,
        );
      }
    };
    let saving = Promise.resolve();
    const afterBatch = (counts: ImportCounts) => {
      onBatch(counts);
      if (!dryRun) {
        saving = saving.then(() =>
          writeState(file, { sha256, project: projectId, source: values.from!, last_line: counts.last_line }),
        );
      }
    };
    // One run, two writers: the database (in batches) or the service's admin API.
    const counts = local
      ? await local.server.importUsers(local.storage, projectId, records(), {
          dryRun,
          ...(secret ? { secret } : {}),
          onNotice: notice,
          onBatch: afterBatch,
        })
      : await importOverHttp(remote!.send, records(), {
          dryRun,
          check: (await loadServer()).checkImportRecord,
          onNotice: notice,
          onBatch: afterBatch,
        });
    await saving;
    if (!dryRun) await removeState(file);
    if (tty) context.stderr.write('\n');
    const seconds = (performance.now() - started) / 1000;
    const skippedByReason = { ...problems };
    for (const [reason, count] of Object.entries(counts.skipped_by_reason)) {
      skippedByReason[reason] = (skippedByReason[reason] ?? 0) + (count ?? 0);
    }
    const report = {
      dry_run: dryRun,
      users_imported: counts.users_imported,
      users_existing: counts.users_existing,
      permissions_imported: counts.permissions_imported,
      permissions_existing: counts.permissions_existing,
      teams_imported: counts.teams_imported,
      teams_existing: counts.teams_existing,
      skipped: counts.skipped + problemCount,
      skipped_by_reason: skippedByReason,
      warnings: counts.warnings,
      seconds: Math.round(seconds * 10) / 10,
    };
    if (json) out(`${JSON.stringify({ type: 'report', ...report })}\n`);
    else {
      if (shown.notices > maxShown) out(`(${shown.notices - maxShown} more notices not shown; --json lists all)\n`);
      const verb = dryRun ? 'Would import' : 'Imported';
      out(
        `${verb} ${report.users_imported} users and ${report.teams_imported} teams in ${report.seconds}s` +
          ` (${report.users_existing} users and ${report.teams_existing} teams were there already);` +
          ` skipped ${report.skipped}${
            report.skipped > 0
              ? ` (${Object.entries(skippedByReason)
                  .map(([reason, n]) => `${reason.replace(/_/g, ' ')}: ${n}`)
                  .join(', ')})`
              : ''
          };` +
          ` ${report.warnings} warnings.\n`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const state = statePath(file);
    context.stderr.write(
      `latchkey: the import stopped; what it wrote is kept, and --resume continues (state in ${state})\n`,
    );
    throw error;
  } finally {
    await local?.close();
  }
}

/**
 * The file's lines, read as they are asked for (`readline` would drop the
 * lines it reads while the import is still opening the project).
 */
async function* readLines(file: string): AsyncIterable<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, 'utf8') as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) yield part.endsWith('\r') ? part.slice(0, -1) : part;
  }
  if (rest !== '') yield rest;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
}
