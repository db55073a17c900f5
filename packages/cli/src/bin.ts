#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { main } from './main.js';

// The only WebAssembly this process compiles is PGlite's (`dev` and the commands on a data directory; `start`
// runs none). By default V8 re-compiles every function that has run a little with its optimising compiler on
// background threads: about 1 s of CPU while `latchkey dev` starts, competing with the start itself on two
// cores. With a high budget only functions that run very hot are re-compiled; the rest keep the baseline
// code (start-up and dev throughput: bench/README.md, 2026-11-25). Set before anything is compiled.
setFlagsFromString('--wasm-tiering-budget=1000000000');

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
