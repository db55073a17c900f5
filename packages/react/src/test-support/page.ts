/** Small helpers of component tests: where the page is, and a promise held open. */

/** A promise with its resolve/reject exposed, to hold an SDK call open. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Puts the browser at `path` (jsdom). */
export function visit(path: string) {
  window.history.replaceState(null, '', path);
}
