import type { DevOwner, DevProject } from './data-dir.js';

/** What `latchkey dev` prints once the service answers (the `--json` object). */
export interface DevInfo extends DevProject, DevOwner {
  /** Origin of the service, e.g. `http://127.0.0.1:8102`; SDKs append `/api/v1`. */
  apiUrl: string;
  dataDir: string;
  /** The dev mailbox page, `<apiUrl>/mailbox`: mail of projects with the shared e-mail config, in dev. */
  mailboxUrl: string;
  /** The dashboard, `<apiUrl>/dashboard/`, when the dashboard's build is installed. */
  dashboardUrl?: string;
}

/** Rows of `label  value` with the values aligned, each line indented by `indent`. */
export function formatRows(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}\n`).join('');
}

/** The dev project's id and keys as aligned rows. */
export function devKeyRows(info: DevProject): Array<[string, string]> {
  return [
    ['Project ID', info.projectId],
    ['Publishable client key', info.publishableClientKey],
    ['Secret server key', info.secretServerKey],
    ['Super secret admin key', info.superSecretAdminKey],
  ];
}

/** The dev project's owner, how to sign in as them, as a titled block of aligned rows. */
export function ownerBlock(info: DevInfo): string {
  return (
    '\nProject owner (a user of the internal project who owns this project):\n' +
    formatRows([
      ['E-mail', info.ownerEmail],
      ['Password', info.ownerPassword],
      ['Internal publishable key', info.internalPublishableClientKey],
    ]) +
    ownerSignInHint(info)
  );
}

/** The friendly block `latchkey dev` prints without `--json`. */
export function formatDevInfo(info: DevInfo): string {
  return [
    'Latchkey dev service is ready.\n\n',
    formatRows([
      ['API URL', info.apiUrl],
      ['Mailbox', info.mailboxUrl],
      ...(info.dashboardUrl ? [['Dashboard', info.dashboardUrl] as [string, string]] : []),
      ...devKeyRows(info),
      ['Data directory', info.dataDir],
    ]),
    ownerBlock(info),
    '\n',
    devKeysNotice(info.dataDir),
    'Press Ctrl-C to stop.\n',
  ].join('');
}

/** How to act as the owner: sign in on the internal project, then use the access token as an admin access token. */
function ownerSignInHint(info: Pick<DevInfo, 'apiUrl' | 'projectId'>): string {
  return (
    `  Sign in with POST ${info.apiUrl}/api/v1/auth/password/sign-in, headers x-stack-project-id: internal,\n` +
    '  x-stack-access-type: client and x-stack-publishable-client-key: <internal publishable key>; then send\n' +
    `  its access_token as x-stack-admin-access-token with x-stack-project-id: ${info.projectId}.\n`
  );
}

/** Reminds the reader that the dev keys are for development only. */
export function devKeysNotice(dataDir: string): string {
  return (
    `These keys and the owner belong to a local development project (kept in ${dataDir}/dev-project.json).\n` +
    'Use them for development only; keep the secret server key and the admin key out of browser code.\n'
  );
}

/**
 * A plain-text table: a header line, then one line per row, columns padded
 * to their widest cell (the last one is not padded). Control characters and
 * bidirectional overrides in cells are shown as `?`, so a stored value cannot
 * move the cursor, rewrite the terminal or reorder what is shown.
 */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const clean = (cell: string) => cell.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '?');
  const lines = [headers, ...rows].map((row) => row.map(clean));
  const widths = headers.map((_, column) => Math.max(...lines.map((row) => [...(row[column] ?? '')].length)));
  return lines
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - [...cell].length),
        )
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** An epoch-ms time as `YYYY-MM-DD HH:MM` UTC, or `-`. */
export function formatTime(millis: number | null | undefined): string {
  if (millis === null || millis === undefined || !Number.isFinite(millis)) return '-';
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
