/**
 * Starts what a person uses: the built CLI (`latchkey dev --json`) on a fresh
 * data directory, the built demo on its own origin, and Debian's Chromium.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface DevInfo {
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  /** The dev mailbox page (`GET <mailboxUrl>/api/messages?to=` lists mail as JSON). */
  mailboxUrl: string;
  /** The dashboard, `<apiUrl>/dashboard/` (the build is part of `npm run build`). */
  dashboardUrl: string;
  ownerEmail: string;
  ownerPassword: string;
}

export interface Stack {
  dev: DevInfo;
  demoUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Runs `latchkey dev --json` and resolves with its one JSON line. */
export async function startDev(dataDir: string): Promise<{ info: DevInfo; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'packages/cli/dist/bin.js'), 'dev', '--json', '--port', '0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<DevInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`latchkey dev did not start in 30 s:\n${stderr}`)), 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as DevInfo);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`latchkey dev exited with ${code}:\n${stderr}`));
    });
  });
  return { info, child };
}

export async function startStack(): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-e2e-'));
  const { info, child } = await startDev(dataDir);
  const { serveDemo } = (await import(join(repoRoot, 'apps/demo/serve.mjs'))) as {
    serveDemo(options: { port: number; config: object }): Promise<{ url: string; close(): Promise<void> }>;
  };
  const demo = await serveDemo({
    port: 0,
    config: { apiUrl: info.apiUrl, projectId: info.projectId, publishableClientKey: info.publishableClientKey },
  });
  const browser = await launchChromium();
  return {
    dev: info,
    demoUrl: demo.url,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await demo.close().catch(() => {});
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, with nothing that reaches the network by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
