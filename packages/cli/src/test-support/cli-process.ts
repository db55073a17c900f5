import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const builtBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const builtServer = fileURLToPath(new URL('../../../server/dist/index.js', import.meta.url));

/** The tests drive the built CLI, as users do; build it when `npm run build` has not. */
export function ensureBuilt(): void {
  if (existsSync(builtBin) && existsSync(builtServer)) return;
  execFileSync('npx', ['tsc', '-b', 'packages/cli'], { cwd: repoRoot, stdio: 'inherit' });
}

/** A spawned `node packages/cli/dist/bin.js ...` with its output collected. */
export interface CliProcess {
  child: ChildProcess;
  /** All of stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first complete stdout line and the ms from spawn to it. */
  firstLine(): Promise<{ line: string; ms: number }>;
  /** Resolve when stdout / stderr contains `text`. */
  waitForStdout(text: string): Promise<void>;
  waitForStderr(text: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Map<ChildProcess, Promise<unknown>>();

export function runCli(args: string[], env: Record<string, string | undefined> = {}): CliProcess {
  const started = performance.now();
  const child = spawn(process.execPath, [builtBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LATCHKEY_SECRET: undefined, DATABASE_URL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (firstLineAt === undefined && out.includes('\n')) firstLineAt = performance.now();
    for (const check of [...waiters]) check();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const check of [...waiters]) check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  running.set(child, exited);
  const waitFor = (predicate: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      };
      waiters.push(check);
      check();
      void exited.then(({ code }) => {
        if (!predicate()) reject(new Error(`CLI exited (${code}) before ${what}; stderr:\n${err}`));
      });
    });
  let firstLineAt: number | undefined;
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    firstLine: () =>
      waitFor(() => out.includes('\n'), 'a stdout line').then(() => ({
        line: out.slice(0, out.indexOf('\n')),
        ms: Math.round(firstLineAt! - started),
      })),
    waitForStdout: (text) => waitFor(() => out.includes(text), `stdout has ${JSON.stringify(text)}`),
    waitForStderr: (text) => waitFor(() => err.includes(text), `stderr has ${JSON.stringify(text)}`),
    exited,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Stops whatever a test left running (a failed test must not hold a port or a data directory). */
export async function stopAll(): Promise<void> {
  for (const child of running.keys()) child.kill('SIGTERM');
  await Promise.all(running.values());
}

/** Runs the CLI to its end: its exit code and what it printed. */
export async function runToEnd(args: string[], env: Record<string, string | undefined> = {}) {
  const cli = runCli(args, env);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** The options that point a command at a running service with its admin key (`latchkey dev --json`'s line). */
export function overHttpArgs(dev: { apiUrl: string; projectId: string; superSecretAdminKey: string }): string[] {
  return ['--api-url', dev.apiUrl, '--project', dev.projectId, '--admin-key', dev.superSecretAdminKey];
}
