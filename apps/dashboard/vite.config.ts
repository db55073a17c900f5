/**
 * Vite build of the dashboard, which the service serves at `/dashboard/`.
 * `base: './'`: every file is named relative to the page's `<base href>`,
 * which the service writes per request, so one build works under any path
 * prefix. Each page of the dashboard is a chunk of its own (`routes.tsx`).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // The manifest tells the bundle test what each page loads first.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true, chunkSizeWarningLimit: 600 },
});
