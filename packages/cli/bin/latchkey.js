#!/usr/bin/env node
// The `latchkey` command: runs the built CLI, dist/bin.js. This file is tracked in
// git, so npm links the command on a fresh clone before anything is built, with no
// install script (npm links a bin only when its file exists).
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  console.error('latchkey is not built yet: run `npm run build` at the repository root.');
  process.exitCode = 1;
}
