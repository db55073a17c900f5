/**
 * Every piece of interface text comes from the labels table: render every
 * component in every state with a pseudo-translation (each label replaced by
 * a marker) and check that no other words are left but the user's own data,
 * and that every label was used.
 */
import type { ClientProjectWire } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignIn, SignUp } from './credential/credential-pages.js';
import { Handler } from './handler/handler.js';
import { englishLabels } from './labels.js';
import { LatchkeyProvider } from './provider.js';
import {
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  plainErrorAnswer,
  projectAnswer,
  recordedAnswers,
  userAnswer,
} from './test-support/answering-app.js';
import { visit } from './test-support/page.js';
import { pseudoLabels } from './test-support/pseudo-labels.js';
import { UserButton } from './user-button/user-button.js';

afterEach(cleanup);

const pseudo = pseudoLabels;

/** The words a person can see or hear in the document. */
function words(): string[] {
  const texts: string[] = [];
  // A line-break opportunity (`<wbr>`) splits no word: read the text as if it were not there.
  const body = document.body.cloneNode(true) as HTMLElement;
  for (const opportunity of body.querySelectorAll('wbr')) opportunity.remove();
  body.normalize();
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of body.querySelectorAll('*')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}

const seen = new Set<string>();
const leftovers: string[] = [];

function collect() {
  for (const text of words()) {
    for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
    const rest = text
      .replace(/⟦[^⟧]*⟧/g, '')
      .replace(/Ada Lovelace|ada@example\.com|\bAL\b|Acme|(Failed to send request to \S+: 400 )?Network down/g, '');
    if (/[A-Za-z]/.test(rest)) leftovers.push(rest.trim());
  }
}

/** Renders `ui`, collects its words at once, after pending work settles, and after each step. */
async function scene(ui: ReactNode, ...steps: (() => void)[]) {
  render(ui);
  collect();
  await act(async () => {});
  collect();
  for (const step of steps) {
    await act(async () => step());
    collect();
  }
  cleanup();
}

/** One service answer; `undefined`: the network is down. */
type Reply = () => Response | Promise<Response> | undefined;

interface ServiceOptions {
  /** The project's display name (`null`: loading the project is refused). */
  projectName?: string | null;
  /** Project settings over the recorded ones. */
  config?: Partial<ClientProjectWire['config']>;
  /** Signed in as Ada (the recorded session). */
  signedIn?: boolean;
  /** Answers by `METHOD /path`, given in turn (the last one repeats), over a service that accepts everything. */
  replies?: Record<string, Reply[]>;
}

/** The real SDK over recorded answers: a service that accepts everything unless `replies` say otherwise. */
function service({ projectName = 'Demo project', config = {}, signedIn = false, replies = {} }: ServiceOptions = {}) {
  const given: Record<string, number> = {};
  return answeringApp(
    (request) => {
      const call = `${request.method} ${request.path}`;
      const queue = replies[call];
      if (queue) {
        const turn = given[call] ?? 0;
        given[call] = turn + 1;
        return queue[Math.min(turn, queue.length - 1)]!();
      }
      if (call === 'GET /projects/current') {
        if (projectName === null) return plainErrorAnswer(400, 'Network down');
        const project = projectAnswer(projectName);
        return jsonAnswer({ ...project, config: { ...project.config, ...config } });
      }
      if (call === 'GET /users/me') {
        return signedIn ? jsonAnswer(userAnswer()) : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER');
      }
      if (call.startsWith('POST /auth/password/sign-') || call === 'POST /auth/otp/sign-in') {
        return jsonAnswer(recordedAnswers.signUp);
      }
      if (call === 'POST /auth/otp/send-sign-in-code') return jsonAnswer({ nonce: 'n'.repeat(39) });
      return jsonAnswer({});
    },
    { signedIn },
  );
}

/** A failure that is not a known error: the service's answer, 400 `Network down`, which the page shows as the SDK words it. */
const down: Reply = () => plainErrorAnswer(400, 'Network down');
/** An answer that never comes. */
const pending: Reply = () => heldAnswer().promise;

function page(node: ReactNode, options: ServiceOptions = {}, projectName?: string) {
  return (
    <LatchkeyProvider app={service(options).app} projectName={projectName} labels={pseudo}>
      {node}
    </LatchkeyProvider>
  );
}

function fillIn() {
  fireEvent.change(document.querySelector('[name="email"]')!, { target: { value: 'ada@example.com' } });
  fireEvent.change(document.querySelector('[name="password"]')!, { target: { value: 'long-enough' } });
}

const click = (selector: string) => () => {
  const target = document.querySelector(selector);
  if (!target) throw new Error(`nothing to click at ${selector}: ${document.body.innerHTML}`);
  fireEvent.click(target);
};

describe('labels', () => {
  it('hold all the interface text of every component in every state, and every entry is used', async () => {
    visit('/handler/sign-in');
    await scene(page(<SignIn />, {}, 'Acme'), click('.lk-password-toggle'), fillIn, click('[type="submit"]'));
    await scene(page(<SignUp />, {}, 'Acme'), fillIn, click('[type="submit"]'));
    for (const projectName of ['Acme', null]) {
      await scene(page(<SignIn />, { projectName })); // loading, then named or unnamed by the service
      await scene(page(<SignUp />, { projectName }));
    }
    visit('/handler/nope');
    await scene(page(<Handler />));

    const signingOut = { signedIn: true, replies: { 'DELETE /auth/sessions/current': [down, pending] } };
    visit('/handler/sign-out');
    await scene(page(<Handler />, signingOut), click('.lk-button-primary'));
    await scene(
      page(<UserButton showName />, { signedIn: true, replies: { 'DELETE /auth/sessions/current': [pending] } }),
      click('.lk-user-trigger'),
      click('button[role="menuitem"]'),
    );

    await emailPageScenes();
    await oauthScenes();

    expect(leftovers).toEqual([]);
    // AccountSettings' own labels are proven by account-settings/account-settings-labels.test.tsx, the
    // team switcher's and the team-invitation page's (on the real service) by teams/teams-ui.test.tsx, the
    // passkey and two-step words by mfa/mfa-labels.test.tsx.
    const provenElsewhere = /^(account(?!Menu)|teamSwitcher|teamInvitation|mfa|passkey)/;
    expect(Object.keys(englishLabels).filter((key) => !seen.has(key) && !provenElsewhere.test(key))).toEqual([]);
  });
});

const code = 'a'.repeat(45);

/** The provider buttons (idle, busy, refused), the OAuth callback page and the error page for each code. */
async function oauthScenes() {
  const enabled_oauth_providers = [{ id: 'github' }, { id: 'corp', display_name: 'Corp' }];
  for (const Page of [SignIn, SignUp]) {
    visit('/handler/sign-in');
    let left = 0;
    // The first leave for the provider fails (the browser refused it), the next one is under way.
    const going = answeringApp(
      (request) =>
        request.path === '/projects/current'
          ? jsonAnswer({ ...projectAnswer(), config: { ...projectAnswer().config, enabled_oauth_providers } })
          : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
      {
        navigate: () => {
          left += 1;
          if (left === 1) throw new Error('Network down');
        },
      },
    );
    await scene(
      <LatchkeyProvider app={going.app} labels={pseudo}>
        <Page />
      </LatchkeyProvider>,
      click('.lk-oauth-button'),
      click('.lk-oauth-button'),
    );
  }
  // A failed flow back on the page it started from, and somebody signed in opening sign-in.
  for (const errorCode of ['OAUTH_PROVIDER_ACCESS_DENIED', 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE']) {
    visit(`/handler/sign-in?errorCode=${errorCode}`);
    await scene(page(<SignIn />, { config: { enabled_oauth_providers } }, 'Acme'));
  }
  visit('/handler/sign-in');
  await scene(page(<SignIn />, { signedIn: true }, 'Acme'));
  visit('/handler/oauth-callback?code=c&state=pending');
  const exchanging = service({ replies: { 'POST /auth/oauth/token': [pending] } });
  await returnFromProvider(exchanging);
  await scene(
    <LatchkeyProvider app={exchanging.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
  );
  const refused = service({ replies: { 'POST /auth/oauth/token': [down] } });
  await returnFromProvider(refused);
  await scene(
    <LatchkeyProvider app={refused.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
  );
  const codes = [
    'OAUTH_PROVIDER_ACCESS_DENIED',
    'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
    'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
    'OUTER_OAUTH_TIMEOUT',
    'SIGN_UP_NOT_ENABLED',
    'SOMETHING_ELSE',
  ];
  for (const errorCode of codes) {
    visit(`/handler/error?errorCode=${errorCode}&message=Network%20down`);
    await scene(page(<Handler />));
  }
}

/** Starts a GitHub sign-in on `app` (the SDK keeps its verifier) and puts the browser on the callback page for it. */
async function returnFromProvider(app: ReturnType<typeof service>) {
  visit('/handler/sign-in');
  void app.app.signInWithOAuth('github');
  await waitFor(() => expect(app.navigations).toHaveLength(1));
  const state = new URL(app.navigations[0]!).searchParams.get('state');
  visit(`/handler/oauth-callback?code=c&state=${state}`);
}

function type(selector: string, value: string) {
  return () => void fireEvent.change(document.querySelector(selector)!, { target: { value } });
}

/** The e-mail pages and the sign-in page's e-mailed code, in each of their states. */
async function emailPageScenes() {
  visit('/handler/forgot-password');
  await scene(
    page(<Handler />, { replies: { 'POST /auth/password/send-reset-code': [down, pending] } }),
    type('[name="email"]', 'ada@example.com'),
    click('[type="submit"]'),
    click('[type="submit"]'),
  );
  await scene(page(<Handler />), type('[name="email"]', 'ada@example.com'), click('[type="submit"]'));

  visit(`/handler/password-reset?code=${code}`);
  await scene(
    page(<Handler />, { replies: { 'POST /auth/password/reset': [down, pending] } }),
    type('[name="new-password"]', 'long-enough'),
    type('[name="confirm-password"]', 'long-enough'),
    click('[type="submit"]'),
    click('[type="submit"]'),
  );
  await scene(
    page(<Handler />),
    type('[name="new-password"]', 'long-enough'),
    type('[name="confirm-password"]', 'long-enough'),
    click('[type="submit"]'),
  );
  visit(`/handler/password-reset?code=${'u'.repeat(45)}`);
  await scene(
    page(<Handler />, {
      replies: { 'POST /auth/password/reset/check-code': [() => knownErrorAnswer('VERIFICATION_CODE_ALREADY_USED')] },
    }),
  );
  visit(`/handler/email-verification?code=${code}`);
  await scene(page(<Handler />));
  const problems = [
    'VERIFICATION_CODE_NOT_FOUND',
    'VERIFICATION_CODE_EXPIRED',
    'VERIFICATION_CODE_ALREADY_USED',
    'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
  ] as const;
  for (const [index, problem] of problems.entries()) {
    visit(`/handler/email-verification?code=${String(index).repeat(45)}`);
    await scene(page(<Handler />, { replies: { 'POST /contact-channels/verify': [() => knownErrorAnswer(problem)] } }));
  }
  visit(`/handler/magic-link-callback?code=${code}`);
  await scene(page(<Handler />, { replies: { 'POST /auth/otp/sign-in': [pending] } }));
  await scene(page(<Handler />, { replies: { 'POST /auth/otp/sign-in': [down] } }));

  visit('/handler/sign-in');
  await scene(
    page(<SignIn />, { config: { magic_link_enabled: true } }, 'Acme'),
    click('.lk-button-secondary'),
    type('[name="email"]', 'ada@example.com'),
    click('[type="submit"]'),
    click('.lk-button-text'),
  );
}
