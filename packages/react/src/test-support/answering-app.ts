/**
 * A real `ClientApp` over recorded answers (`@latchkey/js`'s
 * `test-support/answers.ts`) instead of a service: for components that never
 * reach the service, and for states a live service cannot be held in (a
 * call kept pending, a network failure, a 500, an account connected at a
 * provider the test cannot reach). The SDK runs as it does in a page, only
 * its `fetch` answers from a function or a table of `METHOD /path`. Every
 * request is recorded, as the service would have received it; navigation is
 * recorded, not made.
 */
import { ClientApp, type ClientAppOptions, type HandlerUrls } from '@latchkey/js';
import type { ClientProjectWire, ClientUserWire } from '@latchkey/protocol';
import { recordedAnswers } from '../../../js/src/test-support/answers.js';

export {
  jsonAnswer,
  knownErrorAnswer,
  plainErrorAnswer,
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

/** Answers by `METHOD /path` (below `/api/v1`); a call the table does not answer fails the test. */
export type Answers = Record<string, (request: SentRequest) => Response | Promise<Response>>;

/** The signed-in user as `GET /users/me` answers, with `fields` over the defaults. */
export function userAnswer(fields: Partial<ClientUserWire> = {}): ClientUserWire {
  return {
    ...recordedAnswers.currentUser,
    id: 'user-1',
    primary_email: 'ada@example.com',
    primary_email_verified: true,
    display_name: 'Ada Lovelace',
    signed_up_at_millis: 1_700_000_000_000,
    ...fields,
  };
}

/** The project's public settings as `GET /projects/current` answers, named `displayName`. */
export function projectAnswer(displayName = 'Demo project'): ClientProjectWire {
  return { ...recordedAnswers.project, display_name: displayName };
}

/** When the recorded tokens were issued: the app's clock stands a minute later, so they are fresh. */
const recordedAt = 1_795_456_979_000 + 60_000;

/**
 * A `ClientApp` answered by `answer`, a function or a table (default: no
 * network at all); `signedIn`: it holds the recorded session at start;
 * `urls`: its handler pages; any other option over the SDK's defaults.
 * `requests` lists what it sent; `calls` the same as `METHOD /path`.
 */
export function answeringApp(
  answer: Answer | Answers = () => undefined,
  {
    signedIn = false,
    urls,
    ...options
  }: { signedIn?: boolean; urls?: Partial<HandlerUrls> } & Partial<ClientAppOptions> = {},
) {
  const requests: SentRequest[] = [];
  const calls: string[] = [];
  const navigations: string[] = [];
  const answerOf = typeof answer === 'function' ? answer : tableAnswer(answer);
  const app = new ClientApp({
    projectId: 'project-answers',
    publishableClientKey: 'pck_answers',
    baseUrl: 'https://auth.example.com',
    ...(urls ? { urls } : {}),
    tokenStore: signedIn
      ? { accessToken: recordedAnswers.signUp.access_token, refreshToken: recordedAnswers.signUp.refresh_token }
      : 'memory',
    clock: { now: () => recordedAt },
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const sent: SentRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname.replace(/^\/api\/v1/, ''),
        body: text ? parsed(text) : undefined,
      };
      requests.push(sent);
      calls.push(`${sent.method} ${sent.path}`);
      const answered = await answerOf(sent);
      if (!answered) throw new TypeError('Failed to fetch');
      return answered;
    },
    navigate: (url) => navigations.push(url),
    ...options,
  });
  return { app, requests, calls, navigations, accessToken: recordedAnswers.signUp.access_token };
}

/** The answer of `table` for a request; a request it does not list fails. */
function tableAnswer(table: Answers): Answer {
  return (request) => {
    const entry = table[`${request.method} ${request.path}`];
    if (!entry) throw new Error(`no recorded answer for ${request.method} ${request.path}`);
    return entry(request);
  };
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
