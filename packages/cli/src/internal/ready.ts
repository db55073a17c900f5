import { CliError, systemErrorCode } from './errors.js';

export interface ProjectCredentials {
  projectId: string;
  publishableClientKey: string;
}

/**
 * Waits until the service answers over HTTP: GET /api/v1/projects/current with
 * the publishable key must return the project. Connection failures are retried
 * until `timeoutMs`; an answer that refuses the keys fails at once.
 */
export async function waitUntilServing(apiUrl: string, project: ProjectCredentials, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}/api/v1/projects/current`, {
        headers: {
          'x-stack-project-id': project.projectId,
          'x-stack-access-type': 'client',
          'x-stack-publishable-client-key': project.publishableClientKey,
        },
        signal: AbortSignal.timeout(Math.max(deadline - Date.now(), 1)),
      });
    } catch (error) {
      if (Date.now() >= deadline) {
        throw new CliError(`the service at ${apiUrl} did not answer (${systemErrorCode(error) ?? String(error)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
      continue;
    }
    const body = (await response.json().catch(() => undefined)) as { id?: unknown; code?: unknown } | undefined;
    if (response.ok && body?.id === project.projectId) return;
    const reason = typeof body?.code === 'string' ? body.code : `HTTP ${response.status}`;
    throw new CliError(`the service at ${apiUrl} refused the dev project's keys (${reason})`);
  }
}
