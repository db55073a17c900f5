// Keeps `dist/bin.js` present and executable, so npm's `latchkey` bin link works.
//
// `prepare` (run by npm install): npm links the bin only when its target exists,
// but dist/ is built later by `npm run build`. On a fresh clone this writes a
// placeholder dist/bin.js so the link is made. The root build runs this again
// after `tsc -b`, because tsc writes a rebuilt file without the executable bit.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';

const bin = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(bin)) {
  mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
  writeFileSync(
    bin,
    "#!/usr/bin/env node\nconsole.error('latchkey is not built yet: run `npm run build` at the repository root.');\nprocess.exit(1);\n",
  );
}
chmodSync(bin, 0o755);
