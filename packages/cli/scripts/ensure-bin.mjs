// `prepare` (run by npm install): npm links the `latchkey` bin only when its
// target exists, but dist/ is built later by `npm run build`. On a fresh clone
// this writes a placeholder dist/bin.js (mode 0755) so the link is made; the
// build overwrites it in place, keeping the executable bit.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

const bin = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(bin)) {
  mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
  writeFileSync(
    bin,
    "#!/usr/bin/env node\nconsole.error('latchkey is not built yet: run `npm run build` at the repository root.');\nprocess.exit(1);\n",
    { mode: 0o755 },
  );
}
