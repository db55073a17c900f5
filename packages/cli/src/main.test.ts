import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from './internal/context.js';
import { main } from './main.js';

/** A context that records output instead of writing to the terminal. */
function recording(overrides: Partial<CliContext> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const context: Partial<CliContext> = {
    env: {},
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    ...overrides,
  };
  return { context, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('main', () => {
  it('prints help on --help (exit 0) and on no command (stderr, exit 2)', async () => {
    const help = recording();
    expect(await main(['--help'], help.context)).toBe(0);
    expect(help.stdout()).toMatch(/^Usage: latchkey <command>/);

    const none = recording();
    expect(await main([], none.context)).toBe(2);
    expect(none.stderr()).toMatch(/Commands:/);
  });

  it('prints the version', async () => {
    const run = recording();
    expect(await main(['--version'], run.context)).toBe(0);
    expect(run.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('reports unknown commands and flags as usage errors (exit 2)', async () => {
    const unknown = recording();
    expect(await main(['deploy'], unknown.context)).toBe(2);
    expect(unknown.stderr()).toBe('latchkey: unknown command "deploy"\nRun `latchkey --help` for usage.\n');

    const flag = recording();
    expect(await main(['start', '--verbose'], flag.context)).toBe(2);
    expect(flag.stderr()).toMatch(/--verbose/);
    expect(flag.stderr()).toMatch(/latchkey start --help/);
  });

  it('names the missing environment variable for start (exit 1)', async () => {
    const noUrl = recording();
    expect(await main(['start'], noUrl.context)).toBe(1);
    expect(noUrl.stderr()).toMatch(/DATABASE_URL is not set/);

    const noSecret = recording({ env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } });
    expect(await main(['start'], noSecret.context)).toBe(1);
    expect(noSecret.stderr()).toMatch(/LATCHKEY_SECRET is not set/);
  });

  describe('dev in-process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-main-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('runs until its AbortSignal fires, then stops cleanly', async () => {
      const controller = new AbortController();
      let resolveLine: (line: string) => void = () => {};
      const line = new Promise<string>((resolve) => {
        resolveLine = resolve;
      });
      const run = recording({
        signal: controller.signal,
        stdout: { write: (text: string) => resolveLine(text) },
      });
      const exit = main(['dev', '--json', '--port', '0', '--data-dir', dataDir], run.context);
      const printed = JSON.parse(await line) as { apiUrl: string; dataDir: string };
      expect(printed.dataDir).toBe(dataDir);
      expect((await fetch(`${printed.apiUrl}/api/v1/projects/current`)).status).toBeGreaterThanOrEqual(400);

      controller.abort();
      expect(await exit).toBe(0);
      await expect(fetch(`${printed.apiUrl}/api/v1/projects/current`)).rejects.toThrow();
      expect(existsSync(join(dataDir, 'latchkey.lock'))).toBe(false);
    });

    it('stopped while starting, stops without printing the keys', async () => {
      const controller = new AbortController();
      const run = recording({ signal: controller.signal });
      const exit = main(['dev', '--json', '--port', '0', '--data-dir', dataDir], run.context);
      controller.abort();
      expect(await exit).toBe(0);
      expect(run.stdout()).toBe('');
      expect(existsSync(join(dataDir, 'latchkey.lock'))).toBe(false);
    });
  });
});
