/**
 * A `ClientApp` answered from a table of recorded answers instead of the
 * service, for calls whose answers the service cannot give in Node (a WebAuthn
 * ceremony needs a browser authenticator) or that a test sets up one by one.
 * An unanswered call fails as a network failure would.
 */
import { ClientApp, type ClientAppOptions } from '../client-app.js';
import { recordedAnswers } from './answers.js';
import { type RecordedRequest, recordRequest } from './recorded-request.js';

/** An answer to a `METHOD /path` (below `/api/v1`): a response, or a function of the request. */
export type TableAnswer = Response | ((request: RecordedRequest) => Response);

/** The tokens of the recorded sign-up, for an app that starts signed in. */
export const signedInTokens = {
  accessToken: recordedAnswers.signUp.access_token,
  refreshToken: recordedAnswers.signUp.refresh_token,
};

/**
 * A `ClientApp` whose calls `METHOD /path` are answered from `table` (each
 * answer once unless it is a function), recording the requests and the pages it goes to.
 */
export function answeringApp(
  table: Record<string, TableAnswer | TableAnswer[]>,
  options: Partial<ClientAppOptions> = {},
) {
  const requests: RecordedRequest[] = [];
  const navigations: string[] = [];
  const queued = new Map(Object.entries(table).map(([call, answers]) => [call, [answers].flat()]));
  const app = new ClientApp({
    projectId: 'project-answers',
    publishableClientKey: 'pck_answers',
    baseUrl: 'https://auth.example.com',
    tokenStore: 'memory',
    // The recorded tokens were issued at this time.
    clock: { now: () => 1_795_456_980_000 },
    navigate: (url) => void navigations.push(url),
    fetch: async (input, init) => {
      const request = recordRequest(input, init);
      requests.push(request);
      const answers = queued.get(`${request.method} ${request.path.replace('/api/v1', '')}`) ?? [];
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (!answer) throw new TypeError('Failed to fetch');
      return typeof answer === 'function' ? answer(request) : answer.clone();
    },
    ...options,
  });
  /** `METHOD /path` of every request so far. */
  const calls = () => requests.map((request) => `${request.method} ${request.path.replace('/api/v1', '')}`);
  return { app, requests, navigations, calls };
}
