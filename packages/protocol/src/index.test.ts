/**
 * The public entry: side-effect free module by module (not only through
 * `"sideEffects": false`), and decoding errors does not load their wording.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as protocol from './index.js';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/** Makes esbuild ignore `"sideEffects": false`, so only the code itself decides what an import keeps. */
const ignoreSideEffectsFlag: Plugin = {
  name: 'ignore-side-effects-flag',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.{1,2}\// }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await plugin.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      return { ...resolved, sideEffects: true };
    });
  },
};

async function bundle(contents: string, plugins: Plugin[] = []): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: srcDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins,
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Every source module of the package, tests and test support left out. */
const modules = ['.', 'errors'].flatMap((dir) =>
  readdirSync(`${srcDir}/${dir}`)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => (dir === '.' ? name : `${dir}/${name}`)),
);

describe('@latchkey/protocol', () => {
  it('checks every module', () => {
    expect(modules).toEqual(expect.arrayContaining(['index.ts', 'business-constants.ts', 'errors/catalogue.ts']));
  });

  it.each(modules)('%s runs no code when imported for nothing', async (path) => {
    expect((await bundle(`import './${path.replace(/\.ts$/, '.js')}';`, [ignoreSideEffectsFlag])).trim()).toBe('');
  });

  it('decodes and checks known errors without the wording table or the detail shapes', async () => {
    const code = await bundle(
      "import { decodeKnownError, isKnownError, KnownError } from './index.js'; console.log(decodeKnownError, isKnownError, KnownError);",
    );
    expect(code).toContain('USER_EMAIL_ALREADY_EXISTS');
    expect(code).not.toContain(protocol.errorMessages.EMAIL_PASSWORD_MISMATCH);
    expect(code).not.toContain(protocol.clientMessages.oauthCallbackFailed);
    expect(code).not.toContain('originalErrorCode'); // UNSUPPORTED_ERROR's details field, typed in the catalogue only
  });

  it('exports no default and nothing undefined', () => {
    expect(Object.keys(protocol)).not.toContain('default');
    for (const [name, value] of Object.entries(protocol)) expect(value, name).toBeDefined();
  });
});
