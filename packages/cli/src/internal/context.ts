/** Where a command reads its environment and writes its output; `main` fills it from `process`. */
export interface CliContext {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Stops a long-running command (`dev`, `start`) as SIGINT/SIGTERM do. */
  signal?: AbortSignal;
}

export function processContext(overrides: Partial<CliContext> = {}): CliContext {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    ...overrides,
  };
}

/**
 * Resolves on the first SIGINT or SIGTERM (or when `signal` aborts). Another
 * signal a second or more later exits at once, so a stuck shutdown never traps
 * the user; one that follows at once (Ctrl-C reaches a whole process group, and
 * a parent may forward SIGTERM too) does not cut the graceful shutdown short.
 */
export function waitForStop(signal?: AbortSignal): { stopped: Promise<string>; isStopped(): boolean; dispose(): void } {
  let onSignal: (name: string) => void = () => {};
  let stoppedAt = 0;
  const forceExit = (name: string) => {
    if (Date.now() - stoppedAt >= 1_000) process.exit(name === 'SIGINT' ? 130 : 143);
  };
  const stopped = new Promise<string>((resolve) => {
    onSignal = (name) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stoppedAt = Date.now();
      process.on('SIGINT', forceExit);
      process.on('SIGTERM', forceExit);
      resolve(name);
    };
  });
  const onAbort = () => onSignal('abort');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    stopped,
    isStopped: () => stoppedAt > 0,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', forceExit);
      process.off('SIGTERM', forceExit);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
