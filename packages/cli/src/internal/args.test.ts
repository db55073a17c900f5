import { describe, expect, it } from 'vitest';
import { originFor, parseCommandArgs, parseCommandLine, parseCount, parsePort } from './args.js';
import { UsageError } from './errors.js';

describe('parseCommandArgs', () => {
  const spec = { port: { type: 'string', short: 'p' }, json: { type: 'boolean' } } as const;

  it('reads long and short flags', () => {
    expect(parseCommandArgs('dev', ['-p', '9000', '--json'], spec)).toEqual({ port: '9000', json: true });
    expect(parseCommandArgs('dev', ['--port=0'], spec)).toEqual({ port: '0' });
  });

  it('turns unknown flags and stray arguments into usage errors for the command', () => {
    for (const args of [['--bogus'], ['extra'], ['--port']]) {
      const error = catchError(() => parseCommandArgs('dev', args, spec));
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ exitCode: 2, command: 'dev' });
    }
  });
});

describe('parsePort', () => {
  it('accepts 0 to 65535 and falls back when absent', () => {
    expect(parsePort('dev', '0', 8102)).toBe(0);
    expect(parsePort('dev', '65535', 8102)).toBe(65535);
    expect(parsePort('dev', undefined, 8102)).toBe(8102);
    expect(parsePort('dev', '', 8102)).toBe(8102);
  });

  it('refuses anything else with a usage error', () => {
    for (const value of ['-1', '65536', '80.5', '1e3', 'http', ' 80']) {
      expect(() => parsePort('dev', value, 8102)).toThrow(UsageError);
    }
  });
});

describe('parseCommandLine', () => {
  const spec = { json: { type: 'boolean' } } as const;

  it('returns the bare arguments apart, up to the number allowed', () => {
    expect(parseCommandLine('keys', ['revoke', 'id-1', '--json'], spec, 2)).toEqual({
      flags: { json: true },
      positionals: ['revoke', 'id-1'],
    });
    expect(catchError(() => parseCommandLine('keys', ['a', 'b', 'c'], spec, 2))).toMatchObject({
      exitCode: 2,
      command: 'keys',
      message: 'unexpected argument "c"',
    });
    expect(catchError(() => parseCommandLine('keys', ['--nope'], spec, 2))).toBeInstanceOf(UsageError);
  });
});

describe('parseCount', () => {
  it('reads whole numbers in range and refuses the rest', () => {
    expect(parseCount('users', 'limit', '5', { min: 1, max: 10 }, 3)).toBe(5);
    expect(parseCount('users', 'limit', undefined, { min: 1, max: 10 }, 3)).toBe(3);
    for (const value of ['0', '11', '1.5', '-1', 'ten', '1e1']) {
      expect(catchError(() => parseCount('users', 'limit', value, { min: 1, max: 10 }, 3))).toBeInstanceOf(UsageError);
    }
  });
});

describe('originFor', () => {
  it('maps wildcard hosts to loopback and brackets IPv6', () => {
    expect(originFor('127.0.0.1', 8102)).toBe('http://127.0.0.1:8102');
    expect(originFor('0.0.0.0', 80)).toBe('http://127.0.0.1:80');
    expect(originFor('::', 80)).toBe('http://[::1]:80');
    expect(originFor('localhost', 3000)).toBe('http://localhost:3000');
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
