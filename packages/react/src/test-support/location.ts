/** Puts the browser at `path` (jsdom). */
export function visit(path: string) {
  window.history.replaceState(null, '', path);
}
