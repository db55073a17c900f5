/**
 * A browser page (jsdom) for tests that also run the real service in-process.
 * The service needs Node's own globals (`URL`, `AbortSignal`, ...), which
 * Vitest's jsdom environment replaces; so the file runs in Node and this adds
 * only what the SDK reads of a page: `window` (location, history) and
 * `document` (cookies), on the origin `http://localhost:3000`.
 */
import { afterAll, beforeAll } from 'vitest';

/** The part of jsdom used here (jsdom ships no types of its own). */
interface Page {
  window: { document: unknown; close(): void };
}
type JsdomModule = { JSDOM: new (html: string, options: { url: string }) => Page };

/** Installs the page before the file's tests and removes it after. */
export function useBrowserPage(url = 'http://localhost:3000/'): void {
  const globals = globalThis as { window?: unknown; document?: unknown };
  let dom: Page | undefined;
  beforeAll(async () => {
    const specifier = 'jsdom'; // a root dev dependency without type declarations
    const { JSDOM }: JsdomModule = await import(specifier);
    dom = new JSDOM('<!doctype html>', { url });
    globals.window = dom.window;
    globals.document = dom.window.document;
  });
  afterAll(() => {
    delete globals.window;
    delete globals.document;
    dom?.window.close();
  });
}
