/**
 * A real `ClientApp` over recorded answers (`@latchkey/js`'s
 * `test-support/answers.ts`) instead of a service: for components that never
 * reach the service, and for states a live service cannot be held in (a
 * call kept pending, a network failure, a 500). Every request is recorded,
 * as the service would have received it; navigation is recorded, not made.
 */
import { ClientApp, type HandlerUrls } from '@latchkey/js';
import { recordedAnswers } from '../../../js/src/test-support/answers.js';

export {
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
} from '../../../js/src/test-support/answers.js';

/** A request the SDK made: method, path under `/api/v1`, and body. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** The answer to `request`; `undefined`: the network is down (the fetch rejects). */
export type Answer = (request: SentRequest) => Response | Promise<Response> | undefined;

/** When the recorded tokens were issued: a signed-in app's clock stands a minute later, so they are fresh. */
const recordedAt = 1_795_456_979_000 + 60_000;

/**
 * A `ClientApp` answered by `answer` (default: no network at all);
 * `signedIn`: it holds the recorded session at start; `urls`: its handler pages.
 */
export function answeringApp(
  answer: Answer = () => undefined,
  { signedIn = false, urls }: { signedIn?: boolean; urls?: Partial<HandlerUrls> } = {},
) {
  const requests: SentRequest[] = [];
  const navigations: string[] = [];
  const app = new ClientApp({
    projectId: 'project-answers',
    publishableClientKey: 'pck_answers',
    baseUrl: 'https://auth.example.com',
    ...(urls ? { urls } : {}),
    tokenStore: signedIn
      ? { accessToken: recordedAnswers.signUp.access_token, refreshToken: recordedAnswers.signUp.refresh_token }
      : 'memory',
    ...(signedIn ? { clock: { now: () => recordedAt } } : {}),
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const sent: SentRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname.replace(/^\/api\/v1/, ''),
        body: text ? parsed(text) : undefined,
      };
      requests.push(sent);
      const answered = await answer(sent);
      if (!answered) throw new TypeError('Failed to fetch');
      return answered;
    },
    navigate: (url) => navigations.push(url),
  });
  return { app, requests, navigations };
}

/** A JSON body as data; any other body (the refresh grant's form fields) as its text. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A promise with its resolve exposed, to hold an answer open. */
export function heldAnswer() {
  let release!: (response: Response) => void;
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
