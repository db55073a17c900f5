#!/usr/bin/env node
// Writes dist/pglite-seed.tar.gz (+ pglite-seed.json): a dump of an empty,
// migrated PGlite database. `openStorage` loads it for a new data directory
// instead of running initdb. Run after `tsc -b` (it imports the built code).
import { fileURLToPath } from 'node:url';

const started = performance.now();
const { writeSeed } = await import('../dist/storage/seed.js');
const { path, bytes } = await writeSeed(fileURLToPath(new URL('../dist', import.meta.url)));
const ms = Math.round(performance.now() - started);
console.log(`latchkey: wrote ${path} (${Math.round(bytes / 1024)} KiB) in ${ms} ms`);
