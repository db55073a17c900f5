/** The demo's runtime configuration, served as `/latchkey-config.json` (see `serve.mjs`). */
export interface DemoConfig {
  /** Origin of the Latchkey service, e.g. `http://127.0.0.1:8102`. */
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
}

export async function loadConfig(): Promise<DemoConfig> {
  const response = await fetch('/latchkey-config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/latchkey-config.json answered ${response.status}.`);
  const body = (await response.json()) as Partial<DemoConfig>;
  for (const key of ['apiUrl', 'projectId', 'publishableClientKey'] as const) {
    if (typeof body[key] !== 'string' || !body[key]) throw new Error(`/latchkey-config.json has no ${key}.`);
  }
  return body as DemoConfig;
}
