/**
 * Where the built dashboard is: `LATCHKEY_DASHBOARD_DIR`, else the build of
 * `@latchkey/dashboard` when that package is installed beside the CLI. Null
 * when neither holds an `index.html`: the service then runs without one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DashboardOptions } from '@latchkey/server';
import type { ServerModule, Storage } from './service.js';

async function findDashboardDir(env: { LATCHKEY_DASHBOARD_DIR?: string | undefined } = process.env) {
  const candidates: string[] = [];
  if (env.LATCHKEY_DASHBOARD_DIR) candidates.push(env.LATCHKEY_DASHBOARD_DIR);
  else {
    // Optional: a CLI installed without the dashboard package runs without the dashboard.
    const found = await import('@latchkey/dashboard' as string).catch(() => null);
    if (found && typeof found.dashboardDir === 'string') candidates.push(found.dashboardDir);
  }
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}

/**
 * The service's `dashboard` option, or nothing when the dashboard's build is
 * not installed: the key its page signs owners in with (derived from the
 * secret) and, in development, the dev owner for the one-click sign-in.
 */
export async function dashboardOption(
  server: ServerModule,
  storage: Storage,
  options: { secret: string; publicUrl?: string | undefined; devOwner?: { email: string; password: string } },
): Promise<{ dashboard: DashboardOptions } | Record<string, never>> {
  const dir = await findDashboardDir();
  if (!dir) return {};
  const { internalPublishableClientKey } = await server.prepareDashboard(storage, options);
  const config = { internalPublishableClientKey, ...(options.devOwner ? { devOwner: options.devOwner } : {}) };
  return { dashboard: { dir, config: () => config } };
}
