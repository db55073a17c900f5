/**
 * The request log the benches run the service with: on by default, as in
 * production (the service's own format, one JSON line per request, written
 * asynchronously), but to /dev/null so the terminal is not the bottleneck.
 * `BENCH_REQUEST_LOG=0` turns it off.
 */
import { serverDependency } from './floors.mjs';

/** The `logger` option for `createService`, and how to say it in a table's caption. */
export async function benchLogger() {
  if (process.env.BENCH_REQUEST_LOG === '0') return { logger: false, caption: 'request log off' };
  const { default: pino } = await serverDependency('pino');
  const options = { formatters: { level: (label) => ({ level: label }) } };
  return {
    logger: pino(options, pino.destination({ dest: '/dev/null', sync: false })),
    caption: 'request log on (to /dev/null)',
  };
}
