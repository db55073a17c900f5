/**
 * Where the built dashboard is: `LATCHKEY_DASHBOARD_DIR`, else the build of
 * `@latchkey/dashboard` when that package is installed beside the CLI. Null
 * when neither holds an `index.html`: the service then runs without one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export async function findDashboardDir(env: { LATCHKEY_DASHBOARD_DIR?: string | undefined } = process.env) {
  const candidates: string[] = [];
  if (env.LATCHKEY_DASHBOARD_DIR) candidates.push(env.LATCHKEY_DASHBOARD_DIR);
  else {
    // Optional: a CLI installed without the dashboard package runs without the dashboard.
    const found = await import('@latchkey/dashboard' as string).catch(() => null);
    if (found && typeof found.dashboardDir === 'string') candidates.push(found.dashboardDir);
  }
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}
