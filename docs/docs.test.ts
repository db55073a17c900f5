/**
 * The docs cannot rot: every fenced block of README.md and docs/**\/*.md is
 * checked (docs/README.md, "Code samples", explains the conventions).
 *
 * - `ts`, `tsx` and `js` blocks are type-checked (JavaScript by its JSDoc), each as its own module, against
 *   the packages' sources (the `source` export condition) and the official
 *   `@stackframe/js` SDK, in one TypeScript program. The files are written to
 *   `docs/.samples/` (git-ignored), and left there when the check fails.
 * - `json` blocks must parse; every `sh` block must be valid bash (`bash -n`).
 * - `sh` blocks marked `<!-- run -->` run, page by page in order, in one bash
 *   with `set -euo pipefail`, against a fresh service per page (`startTestService()`):
 *   `API`, `PROJECT`, `PCK`, `SSK` and `SAK` hold its URL, project id and keys.
 * - The Node guide's `server.mjs` (a block marked `<!-- file: server.mjs -->`)
 *   runs as written, on the Node running the tests, against a real service.
 * - Every fence names its language; relative links reach their file and heading.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startTestService } from '@latchkey/server/testing';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { brokenLinks, type CodeBlock, codeBlocks, documentationPages } from './support/code-blocks.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const samplesDir = join(root, 'docs', '.samples');
const pages = documentationPages(root);
const blocks = pages.flatMap((page) => codeBlocks(root, page));
const languages = new Set(['ts', 'tsx', 'js', 'sh', 'json', 'text']);

const where = (block: CodeBlock, line = block.line) => `${block.file}:${line}`;

describe('the code blocks of README.md and docs/', () => {
  it('are found on every page, and every fence names a known language', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/README.md');
    expect(blocks.filter((block) => block.lang === 'ts').length).toBeGreaterThan(10);
    const unnamed = blocks
      .filter((block) => !languages.has(block.lang))
      .map((b) => `${where(b)} (${b.lang || 'none'})`);
    expect(unnamed, `fences must name one of ${[...languages].join(', ')}`).toEqual([]);
  });

  it('type-check: every ts and tsx block compiles against the packages', () => {
    const failures = typeCheck(blocks.filter((block) => ['ts', 'tsx', 'js'].includes(block.lang)));
    expect(failures, failures.join('\n')).toEqual([]);
    rmSync(samplesDir, { recursive: true, force: true }); // kept only to read a failure in place
  }, 120_000);

  it('relative links point at existing files and headings', () => {
    expect(pages.flatMap((page) => brokenLinks(root, page))).toEqual([]);
  });

  it('every json block parses', () => {
    const failures = blocks
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${where(block)}: ${String(error)}`];
        }
      });
    expect(failures).toEqual([]);
  });

  it('every sh block is valid bash', () => {
    const failures = blocks
      .filter((block) => block.lang === 'sh')
      .flatMap((block) => {
        const check = spawnSync('bash', ['-n'], { input: block.code, encoding: 'utf8' });
        return check.status === 0 ? [] : [`${where(block)}: ${check.stderr.trim()}`];
      });
    expect(failures).toEqual([]);
  });
});

const runPages = pages.filter((page) => blocks.some((block) => block.file === page && block.run));

describe('the sh blocks marked <!-- run -->', () => {
  it('exist (the curl flow of the script guide at least)', () => {
    expect(runPages).toContain('docs/getting-started/script.md');
  });

  it.each(runPages)(
    '%s runs against a real service',
    async (page) => {
      const service = await startTestService({ databaseUrl: null }); // one per page: pages may sign up the same e-mail
      try {
        const script = [
          'set -euo pipefail',
          `trap 'echo "failed in the block at $LATCHKEY_DOCS_BLOCK (exit $?)" >&2' ERR`,
          ...blocks
            .filter((block) => block.file === page && block.run)
            .flatMap((block) => [`LATCHKEY_DOCS_BLOCK='${where(block)}'`, block.code]),
        ].join('\n');
        const result = await runBash(script, {
          API: service.url,
          PROJECT: service.projectId,
          PCK: service.keys.publishableClientKey,
          SSK: service.keys.secretServerKey,
          SAK: service.keys.superSecretAdminKey,
        });
        expect(result.status, `${result.stderr}\n--- stdout ---\n${result.stdout}`).toBe(0);
      } finally {
        await service.close();
      }
    },
    60_000,
  );
});

describe('the Node guide', () => {
  it('its server.mjs runs as written on this Node: 401 signed out, the user as JSON signed in', async () => {
    const [block, ...more] = blocks.filter(
      (b) => b.file === 'docs/getting-started/node-backend.md' && b.saveAs === 'server.mjs',
    );
    expect(block?.lang).toBe('js');
    expect(more).toEqual([]);
    const service = await startTestService({ databaseUrl: null });
    // Inside the repository, so `@latchkey/js` resolves to the built workspace package, as from a reader's node_modules.
    const dir = mkdtempSync(join(root, 'docs', '.node-guide-'));
    writeFileSync(join(dir, 'server.mjs'), block!.code);
    const server = spawn(process.execPath, ['server.mjs'], {
      cwd: dir,
      env: {
        ...process.env,
        LATCHKEY_URL: service.url,
        LATCHKEY_PROJECT_ID: service.projectId,
        LATCHKEY_SECRET_SERVER_KEY: service.keys.secretServerKey,
        LATCHKEY_PUBLISHABLE_KEY: service.keys.publishableClientKey,
        PORT: String(await freePort()),
      },
    });
    let stderr = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const listening = await firstLine(server.stdout, () => stderr);
      const url = /listening on (http:\/\/localhost:\d+)/.exec(listening)?.[1];
      expect(url, listening).toBeDefined();
      const signUp = await fetch(`${service.url}/api/v1/auth/password/sign-up`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-stack-access-type': 'client',
          'x-stack-project-id': service.projectId,
          'x-stack-publishable-client-key': service.keys.publishableClientKey,
        },
        body: JSON.stringify({ email: 'node-guide@example.com', password: 'correct-horse-1' }),
      });
      expect(signUp.status).toBe(200);
      const { access_token: accessToken } = (await signUp.json()) as { access_token: string };
      const ask = (headers: Record<string, string>) => fetch(url!, { headers });
      const signedOut = await ask({});
      expect(signedOut.status).toBe(401);
      const signedIn = await ask({ authorization: `Bearer ${accessToken}` });
      expect(signedIn.status, stderr).toBe(200);
      expect(await signedIn.json()).toMatchObject({ email: 'node-guide@example.com', plan: null });
    } finally {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
      await service.close();
    }
  }, 60_000);
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createNetServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The first line a program writes to `stream` (it failed to start when the stream ends first). */
async function firstLine(stream: Readable, log: () => string): Promise<string> {
  let text = '';
  for await (const chunk of stream.setEncoding('utf8')) {
    text += chunk;
    if (text.includes('\n')) return text.split('\n')[0]!;
  }
  throw new Error(`the program ended without a line: ${text}\n${log()}`);
}

/**
 * Runs `script` in bash in a fresh temporary directory, asynchronously: the
 * service answers from this process, so a blocking spawn would hang its curl calls.
 */
async function runBash(script: string, env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'latchkey-docs-'));
  try {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return { status, stdout, stderr };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Writes each block to `docs/.samples/` as a module and type-checks them all; returns `file:line: message`s. */
function typeCheck(samples: CodeBlock[]): string[] {
  rmSync(samplesDir, { recursive: true, force: true });
  mkdirSync(samplesDir, { recursive: true });
  const origins = new Map<string, { block: CodeBlock; preludeLines: number }>();
  for (const block of samples) {
    const name = `${block.file.replace(/[/.]/g, '_')}_L${block.line}.${block.lang}`;
    const prelude = block.prelude === null ? [] : block.prelude.split('\n');
    const path = join(samplesDir, name);
    writeFileSync(path, [...prelude, block.code, 'export {};', ''].join('\n'));
    origins.set(path, { block, preludeLines: prelude.length });
  }
  const program = ts.createProgram({
    rootNames: [...origins.keys(), join(root, 'docs', 'support', 'sample-globals.d.ts')],
    options: sampleCompilerOptions,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file;
    if (!file) return message;
    const origin = origins.get(file.fileName);
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    if (!origin) return `${file.fileName}:${line + 1}: ${message}`;
    const { block, preludeLines } = origin;
    const mdLine = line < preludeLines ? block.preludeLine : block.line + line - preludeLines;
    return `${where(block, mdLine)}: ${message}${line < preludeLines ? ' (in the prelude)' : ''}`;
  });
}

/** What a reader's strict TypeScript project would use; `@latchkey/*` resolve to their sources. */
const sampleCompilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['source'],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUncheckedIndexedAccess: true,
  esModuleInterop: true,
  allowJs: true,
  checkJs: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
  // A Next.js app (bundler resolution) imports Next's subpaths without an extension; Next has no exports map.
  baseUrl: root,
  paths: { 'next/*': ['node_modules/next/*.d.ts'] },
  typeRoots: [join(root, 'node_modules', '@types')],
};
