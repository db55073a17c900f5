/**
 * Bundle guard (STYLE.md item 11): the browser entry must not pull in zod,
 * Node built-ins or server code. The min+gzip size is recorded as a figure.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));

describe('browser bundle of @latchkey/js', () => {
  it('holds no zod, node: built-ins or server modules', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['source'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /(^|\/)zod\//.test(path))).toEqual([]);
    expect(inputs.filter((path) => path.includes('packages/server') || path.includes('@latchkey/server'))).toEqual([]);
    expect(inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(code).not.toMatch(/\bzod\b/);
    expect(inputs.some((path) => path.includes('protocol/src'))).toBe(true);
    const gzipped = gzipSync(code).length;
    console.log(
      `@latchkey/js browser bundle: ${code.length} B minified, ${gzipped} B min+gzip (${inputs.length} modules)`,
    );
    expect(gzipped).toBeGreaterThan(0);
  });
});
