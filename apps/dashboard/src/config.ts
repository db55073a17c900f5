/**
 * Where the dashboard is and what it is told: the service serves the page at
 * `<prefix>/dashboard/` and its config at `<prefix>/dashboard/config.json`;
 * the API is `<prefix>/api/v1` of the same origin.
 */

/** `/dashboard/` or `/<prefix>/dashboard/`: the page's base path (its `<base href>`, written by the service). */
export const basePath = new URL('.', document.baseURI).pathname;

/** The service's API, on this origin. */
export const apiBaseUrl = new URL('../api/v1', new URL('.', document.baseURI)).href;

/** What the service tells the page (`DashboardConfig` of the server). */
export interface DashboardConfig {
  /** A publishable client key of the `internal` project, which owners sign in to. */
  internalPublishableClientKey: string;
  /** Development only: the dev project's owner, for the one-click sign-in. */
  devOwner?: { email: string; password: string };
}

export async function loadConfig(): Promise<DashboardConfig> {
  const response = await fetch(new URL('config.json', document.baseURI), { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json answered ${response.status}.`);
  const body = (await response.json()) as Partial<DashboardConfig>;
  if (typeof body.internalPublishableClientKey !== 'string' || !body.internalPublishableClientKey) {
    throw new Error('config.json has no internalPublishableClientKey.');
  }
  return body as DashboardConfig;
}
