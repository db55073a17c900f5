#!/usr/bin/env node
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Normally the process ends here by itself; never let a stray handle keep it alive.
    setTimeout(() => process.exit(code), 2_000).unref();
  },
  (error: unknown) => {
    console.error('latchkey: unexpected error:', error);
    process.exitCode = 1;
  },
);
