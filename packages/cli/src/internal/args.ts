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
