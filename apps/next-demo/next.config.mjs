// The demo is built inside the monorepo: the workspace packages it imports live outside this folder,
// so the build's root is the repository (Turbopack and output tracing both need to see them). The
// Next 15 copy of the demo (e2e/next.test.ts) lives one folder deeper and names the root itself.
import { fileURLToPath } from 'node:url';

const root = process.env.LATCHKEY_REPO_ROOT || fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
