/**
 * Writes `dist/styles.css`, the one stylesheet users import or link (the
 * package's `./styles.css` export), as the concatenation of
 * `src/styles/*.css` in cascade order (tokens first). One file, so it works
 * with a bundler and with a plain `<link>` alike. In the repository,
 * `src/styles.css` `@import`s the same parts (bundlers resolve it through the
 * `source` condition), so each rule is written once. `npm run build` runs this.
 *
 *   node packages/react/scripts/build-styles.mjs
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts, in cascade order: tokens, then shared controls, then components. */
export const styleParts = [
  'tokens',
  'spinner',
  'button',
  'field',
  'password-input',
  'credential-form',
  'auth-card',
  'code-input',
  'user-button',
  'account-settings',
  'teams',
  'oauth',
  'mfa',
];

const stylesDir = new URL('../src/styles/', import.meta.url);
export const stylesheetPath = fileURLToPath(new URL('../dist/styles.css', import.meta.url));
/** The source entry: one `@import` per part, in the same order. */
export const sourceStylesheetPath = fileURLToPath(new URL('../src/styles.css', import.meta.url));

const banner = `/*
 * @latchkey/react styles: all of src/styles/*.css in one file,
 * written by scripts/build-styles.mjs at build time.
 */
`;

/** The text `src/styles.css` should have. */
export function buildStylesheet() {
  const parts = styleParts.map((name) => {
    const text = readFileSync(new URL(`${name}.css`, stylesDir), 'utf8').trimEnd();
    return `/* ==== styles/${name}.css ==== */\n\n${text}\n`;
  });
  return `${banner}\n${parts.join('\n')}`;
}

/** The text `src/styles.css` has: the parts as `@import`s. */
export function sourceStylesheet() {
  const imports = styleParts.map((name) => `@import "./styles/${name}.css";`).join('\n');
  return `/*\n * @latchkey/react styles. Each part is written once, in styles/; the build\n * concatenates them into dist/styles.css, which the package exports.\n */\n${imports}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(fileURLToPath(new URL('../dist/', import.meta.url)), { recursive: true });
  writeFileSync(stylesheetPath, buildStylesheet());
}
