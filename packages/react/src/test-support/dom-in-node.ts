/**
 * A DOM for tests that also run the real service in-process. Such a test
 * file runs under `// @vitest-environment node` (modules transformed as for
 * Node, which the service needs: the `jsdom` environment transforms
 * `new URL(path, import.meta.url)` for the browser and breaks its file
 * lookups) and imports this module first: it installs jsdom's globals as the
 * `jsdom` environment does, before Testing Library and React load, then puts
 * back Node's own data and network classes, which the service and its
 * embedded database rely on (jsdom's `Blob` has no `arrayBuffer`, say).
 */
import { afterAll } from 'vitest';
import { builtinEnvironments } from 'vitest/runtime';

const nodeOwn = [
  'Blob',
  'File',
  'FormData',
  'URL',
  'URLSearchParams',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'crypto',
  'structuredClone',
] as const;

const global = globalThis as unknown as Record<string, unknown>;
const saved = new Map(nodeOwn.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
const dom = await builtinEnvironments.jsdom.setup(globalThis, { jsdom: { url: 'http://localhost:3000/' } });
for (const [name, descriptor] of saved) {
  if (descriptor) Object.defineProperty(globalThis, name, descriptor);
  else delete global[name];
}
afterAll(async () => {
  // Let React finish work that answers from the service scheduled after the last test (its scheduler
  // runs on setImmediate and reads `window`), so that it does not run once the DOM is gone.
  for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
  dom.teardown(globalThis);
});
