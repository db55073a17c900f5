import type { DevProject } from './data-dir.js';

/** What `latchkey dev` prints once the service answers (the `--json` object). */
export interface DevInfo extends DevProject {
  /** Origin of the service, e.g. `http://127.0.0.1:8102`; SDKs append `/api/v1`. */
  apiUrl: string;
  dataDir: string;
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

/** The friendly block `latchkey dev` prints without `--json`. */
export function formatDevInfo(info: DevInfo): string {
  return [
    'Latchkey dev service is ready.\n\n',
    formatRows([['API URL', info.apiUrl], ...devKeyRows(info), ['Data directory', info.dataDir]]),
    '\n',
    devKeysNotice(info.dataDir),
    'Press Ctrl-C to stop.\n',
  ].join('');
}

/** Reminds the reader that the dev keys are for development only. */
export function devKeysNotice(dataDir: string): string {
  return (
    `These keys belong to a local development project (kept in ${dataDir}/dev-project.json).\n` +
    'Use them for development only; keep the secret server key and the admin key out of browser code.\n'
  );
}
