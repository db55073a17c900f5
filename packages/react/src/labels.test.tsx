/**
 * Every piece of interface text comes from the labels table: render every
 * component in every state with a pseudo-translation (each label replaced by
 * a marker) and check that no other words are left but the user's own data,
 * and that every label was used.
 */
import { KnownError } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignIn, SignUp } from './credential/credential-pages.js';
import { Handler } from './handler/handler.js';
import { englishLabels } from './labels.js';
import { LatchkeyProvider } from './provider.js';
import { createFakeApp, fakeUser, visit } from './test-support/fake-app.js';
import { pseudoLabels } from './test-support/pseudo-labels.js';
import { UserButton } from './user-button/user-button.js';

afterEach(cleanup);

const pseudo = pseudoLabels;

/** The words a person can see or hear in the document. */
function words(): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of document.body.querySelectorAll('*')) {
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
    const rest = text.replace(/⟦[^⟧]*⟧/g, '').replace(/Ada Lovelace|ada@example\.com|\bAL\b|Acme|Network down/g, '');
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

function page(node: ReactNode, options: Parameters<typeof createFakeApp>[0] = {}, projectName?: string) {
  return (
    <LatchkeyProvider app={createFakeApp(options).app} projectName={projectName} labels={pseudo}>
      {node}
    </LatchkeyProvider>
  );
}

function fillIn() {
  fireEvent.change(document.querySelector('[name="email"]')!, { target: { value: 'ada@example.com' } });
  fireEvent.change(document.querySelector('[name="password"]')!, { target: { value: 'long-enough' } });
}

const click = (selector: string) => () => void fireEvent.click(document.querySelector(selector)!);

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

    const user = fakeUser();
    user.signOut.mockRejectedValueOnce(new Error('Network down')).mockReturnValue(new Promise(() => {}));
    visit('/handler/sign-out');
    await scene(page(<Handler />, { user }), click('.lk-button-primary'));
    await scene(page(<UserButton showName />, { user }), click('.lk-user-trigger'), click('button[role="menuitem"]'));

    await emailPageScenes();
    await oauthScenes();

    expect(leftovers).toEqual([]);
    // AccountSettings' own labels are proven by account-settings/account-settings-labels.test.tsx, the
    // team switcher's and the team-invitation page's (on the real service) by teams/teams-ui.test.tsx.
    const provenElsewhere = /^(account(?!Menu)|teamSwitcher|teamInvitation)/;
    expect(Object.keys(englishLabels).filter((key) => !seen.has(key) && !provenElsewhere.test(key))).toEqual([]);
  });
});

const code = 'a'.repeat(45);

/** The provider buttons (idle, busy, refused), the OAuth callback page and the error page for each code. */
async function oauthScenes() {
  const oauthProviders = [{ id: 'github' }, { id: 'corp', displayName: 'Corp' }];
  for (const Page of [SignIn, SignUp]) {
    visit('/handler/sign-in');
    const going = createFakeApp({ config: { oauthProviders } });
    going.mocks.signInWithOAuth.mockRejectedValueOnce(new Error('Network down'));
    await scene(
      <LatchkeyProvider app={going.app} labels={pseudo}>
        <Page />
      </LatchkeyProvider>,
      click('.lk-oauth-button'),
      click('.lk-oauth-button'),
    );
  }
  visit('/handler/oauth-callback?code=c&state=pending');
  await scene(page(<Handler />));
  visit('/handler/oauth-callback?code=c&state=refused');
  const refused = createFakeApp();
  refused.mocks.callOAuthCallback.mockRejectedValueOnce(new Error('Network down'));
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

function type(selector: string, value: string) {
  return () => void fireEvent.change(document.querySelector(selector)!, { target: { value } });
}

/** The e-mail pages and the sign-in page's e-mailed code, in each of their states. */
async function emailPageScenes() {
  visit('/handler/forgot-password');
  const refusing = createFakeApp();
  refusing.mocks.sendForgotPasswordEmail
    .mockRejectedValueOnce(new Error('Network down'))
    .mockReturnValueOnce(new Promise(() => {}));
  await scene(
    <LatchkeyProvider app={refusing.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
    type('[name="email"]', 'ada@example.com'),
    click('[type="submit"]'),
    click('[type="submit"]'),
  );
  await scene(page(<Handler />), type('[name="email"]', 'ada@example.com'), click('[type="submit"]'));

  visit(`/handler/password-reset?code=${code}`);
  const resetting = createFakeApp();
  resetting.mocks.resetPassword
    .mockRejectedValueOnce(new Error('Network down'))
    .mockReturnValueOnce(new Promise(() => {}));
  await scene(
    <LatchkeyProvider app={resetting.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
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
  const usedReset = createFakeApp();
  usedReset.mocks.verifyPasswordResetCode.mockRejectedValueOnce(new KnownError('VERIFICATION_CODE_ALREADY_USED'));
  visit(`/handler/password-reset?code=${'u'.repeat(45)}`);
  await scene(
    <LatchkeyProvider app={usedReset.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
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
    const failing = createFakeApp();
    failing.mocks.verifyEmail.mockRejectedValueOnce(new KnownError(problem));
    visit(`/handler/email-verification?code=${String(index).repeat(45)}`);
    await scene(
      <LatchkeyProvider app={failing.app} labels={pseudo}>
        <Handler />
      </LatchkeyProvider>,
    );
  }
  visit(`/handler/magic-link-callback?code=${code}`);
  const magic = createFakeApp();
  magic.mocks.signInWithMagicLink.mockReturnValueOnce(new Promise(() => {}));
  await scene(
    <LatchkeyProvider app={magic.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
  );
  const failedLink = createFakeApp();
  failedLink.mocks.signInWithMagicLink.mockRejectedValueOnce(new Error('Network down'));
  await scene(
    <LatchkeyProvider app={failedLink.app} labels={pseudo}>
      <Handler />
    </LatchkeyProvider>,
  );

  visit('/handler/sign-in');
  await scene(
    page(<SignIn />, { config: { magicLinkEnabled: true } }, 'Acme'),
    click('.lk-button-secondary'),
    type('[name="email"]', 'ada@example.com'),
    click('[type="submit"]'),
    click('.lk-button-text'),
  );
}
