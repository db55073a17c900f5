/**
 * Vite build of the demo. Workspace packages resolve to their TypeScript
 * sources (the `source` export condition), so no prior `tsc` build is needed.
 *
 * `vite dev` serves `/latchkey-config.json` from LATCHKEY_API_URL,
 * LATCHKEY_PROJECT_ID and LATCHKEY_PUBLISHABLE_CLIENT_KEY; built, the demo
 * gets it from `serve.mjs`.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), devConfig()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});

function devConfig(): Plugin {
  return {
    name: 'latchkey-demo-config',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/latchkey-config.json', (_request, response) => {
        const { LATCHKEY_API_URL, LATCHKEY_PROJECT_ID, LATCHKEY_PUBLISHABLE_CLIENT_KEY } = process.env;
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.setHeader('cache-control', 'no-store');
        if (!LATCHKEY_API_URL || !LATCHKEY_PROJECT_ID || !LATCHKEY_PUBLISHABLE_CLIENT_KEY) {
          response.statusCode = 404;
          response.end(
            JSON.stringify({ error: 'Set LATCHKEY_API_URL, LATCHKEY_PROJECT_ID, LATCHKEY_PUBLISHABLE_CLIENT_KEY.' }),
          );
          return;
        }
        response.end(
          JSON.stringify({
            apiUrl: LATCHKEY_API_URL,
            projectId: LATCHKEY_PROJECT_ID,
            publishableClientKey: LATCHKEY_PUBLISHABLE_CLIENT_KEY,
          }),
        );
      });
    },
  };
}
