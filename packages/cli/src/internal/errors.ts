/** A failure the user can act on: printed as one line, no stack trace. */
export class CliError extends Error {
  override name = 'CliError';

  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Wrong command line: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message, 2);
  }
}

/** The `code` of a Node system error (`EADDRINUSE`, `ENOENT`...), looking through `cause`. */
export function systemErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}
