import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** Flags of one command: single-value strings and booleans only. */
export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;
export type FlagValues<T extends FlagSpec> = { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string };

/** `parseArgs` in strict mode, with its errors turned into usage errors (exit code 2). */
export function parseCommandArgs<T extends FlagSpec>(command: string, args: string[], options: T): FlagValues<T> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as FlagValues<T>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''), command);
  }
}

/**
 * Like `parseCommandArgs`, with up to `maxPositionals` bare arguments (a
 * sub-command and its operand, e.g. `revoke <id>`) returned apart.
 */
export function parseCommandLine<T extends FlagSpec>(
  command: string,
  args: string[],
  options: T,
  maxPositionals: number,
): { flags: FlagValues<T>; positionals: string[] } {
  let parsed: { values: unknown; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message, command);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[maxPositionals]}"`, command);
  }
  return { flags: parsed.values as FlagValues<T>, positionals: parsed.positionals };
}

/** A whole number from a flag, within `min`..`max`; `fallback` when absent. */
export function parseCount(
  command: string,
  flag: string,
  value: string | undefined,
  range: { min: number; max: number },
  fallback: number,
): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < range.min || count > range.max) {
    throw new UsageError(
      `invalid --${flag} "${value}": expected a whole number from ${range.min} to ${range.max}`,
      command,
    );
  }
  return count;
}

/** A TCP port from a flag or an environment variable; 0 asks the OS for a free one. */
export function parsePort(command: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(`invalid port "${value}": expected a whole number from 0 to 65535`, command);
  }
  return port;
}

/** The origin clients use to reach a server listening on `host:port` (wildcard hosts map to loopback). */
export function originFor(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
