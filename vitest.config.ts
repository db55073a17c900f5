import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources (the `source` export condition), so
// unit and integration tests need no build; e2e tests use the built packages.
export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  test: {
    // Vitest's default (one worker fewer than the cores) runs one file at a time on a 2-core machine,
    // leaving a core idle while tests wait on sockets, PostgreSQL and Chromium: two workers there
    // took the suite from 487 s to 342 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'] } },
      // The js tests drive the real service in-process too (see react below for the timeout).
      { extends: true, test: { name: 'js', include: ['packages/js/src/**/*.test.ts'], testTimeout: 20_000 } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          // The files share a worker's modules (each starts its own service and closes it; none mocks a
          // module): importing the service's sources once per worker instead of once per file took the
          // server files from 66 s to 38 s on a sample of 24, and the whole project to under 5 minutes.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // Several react files drive the real service in-process; on a loaded 2-core machine a test may
        // take longer than Vitest's default 5 s.
        test: {
          name: 'react',
          include: ['packages/react/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 20_000,
        },
      },
      // @latchkey/next: the middleware against the real service in-process, and its edge bundle.
      {
        extends: true,
        test: { name: 'next', include: ['packages/next/src/**/*.test.{ts,tsx}'], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: { name: 'cli', include: ['packages/cli/src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      // The dashboard's own checks (its build's size); its pages are tested in Chromium (e2e).
      { extends: true, test: { name: 'dashboard', include: ['apps/dashboard/src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'docs', include: ['docs/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'compat', include: ['compat/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
