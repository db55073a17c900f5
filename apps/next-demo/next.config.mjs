// The demo is built inside the monorepo: the workspace packages it imports live outside this folder,
// so the build's root is the repository (Turbopack and output tracing both need to see them).
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  // e2e/next.test.ts builds the same app with the previous major too, each into its own folder.
  distDir: process.env.NEXT_DEMO_DIST_DIR || '.next',
  turbopack: { root },
  outputFileTracingRoot: root,
};
