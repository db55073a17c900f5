/** Small helpers the two sides of `npm run bench -- --peers` share. */

/**
 * Counts promises not yet settled; `idle()` resolves once none is left. Each
 * side wraps its request handler with it, because an autocannon run ends with
 * requests still being worked on (password hashes queued), and the next run
 * must start on an idle service.
 */
export function inFlight() {
  let count = 0;
  return {
    track(promise) {
      count++;
      return promise.finally(() => count--);
    },
    async idle() {
      while (count > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}

/** Runs `make` `count` times, 10 at a time, and returns the results in order. */
export async function inBatches(count, make) {
  const results = [];
  for (let start = 0; start < count; start += 10) {
    const size = Math.min(10, count - start);
    results.push(...(await Promise.all(Array.from({ length: size }, () => make()))));
  }
  return results;
}
