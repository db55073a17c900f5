/**
 * What a test sets up through the service's server API (the project's secret
 * server key) rather than by clicking: a team and an invitation to it.
 */
import { expect } from 'vitest';
import type { DevInfo } from './stack.js';

/** `method path` with the server's credentials; the answer's JSON, after checking its status. */
async function asServer(dev: DevInfo, method: string, path: string, body: object, status = 200): Promise<unknown> {
  const answer = await fetch(`${dev.apiUrl}/api/v1${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-stack-project-id': dev.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': dev.secretServerKey,
    },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  expect(answer.status, text).toBe(status);
  return JSON.parse(text);
}

/** Creates a team named `teamName` and mails `email` an invitation to it, whose link opens `callbackUrl`. */
export async function inviteToNewTeam(dev: DevInfo, teamName: string, email: string, callbackUrl: string) {
  const team = (await asServer(dev, 'POST', '/teams', { display_name: teamName }, 201)) as { id: string };
  await asServer(dev, 'POST', '/team-invitations/send-code', { email, team_id: team.id, callback_url: callbackUrl });
}
