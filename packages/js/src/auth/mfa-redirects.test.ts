/**
 * Where the second step of a sign-in ends, in a page (jsdom): where the first
 * factor would have gone (`returnTo`, e.g. an OAuth flow's page), else the
 * page's `after_auth_return_to`, else the after-sign-in or after-sign-up
 * page; never another origin. After the forced set-up, the answer's
 * `redirect` goes there once the recovery codes are shown.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { answeringApp } from '../test-support/answering-app.js';
import { jsonAnswer, recordedAnswers } from '../test-support/answers.js';
import { useBrowserPage } from '../test-support/browser.js';

const { signUp, currentUser, recoveryCodes } = recordedAnswers;

useBrowserPage();

const immediateTimers = {
  setTimeout: (run: () => void) => {
    run();
    return 0 as unknown as ReturnType<typeof setTimeout>;
  },
  clearTimeout: () => {},
};

const urls = { afterSignIn: '/dashboard', afterSignUp: '/welcome' };

function appAnswering(answers: Parameters<typeof answeringApp>[0]) {
  return answeringApp({ ...answers, 'GET /users/me': jsonAnswer(currentUser) }, { timers: immediateTimers, urls });
}

describe('signInWithMfa', () => {
  const answers = { 'POST /auth/mfa/sign-in': jsonAnswer(signUp) };
  beforeEach(() => window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Fcart'));

  it('goes to the returnTo it is given, before the page’s after_auth_return_to', async () => {
    const { app, navigations } = appAnswering(answers);
    await app.signInWithMfa({ attemptCode: 'a', totp: '123456' }, { returnTo: 'http://localhost:3000/orders?id=7' });
    expect(navigations).toEqual(['/orders?id=7']);
  });

  it('goes to the page’s after_auth_return_to without one, and ignores one on another origin', async () => {
    const first = appAnswering(answers);
    await first.app.signInWithMfa({ attemptCode: 'a', totp: '123456' });
    expect(first.navigations).toEqual(['/cart']);
    window.history.replaceState(null, '', '/handler/oauth-callback');
    const second = appAnswering(answers);
    await second.app.signInWithMfa({ attemptCode: 'a', totp: '123456' }, { returnTo: 'https://evil.example/x' });
    expect(second.navigations).toEqual(['/dashboard']);
  });
});

describe('confirmMfaSetup', () => {
  const answers = {
    'POST /auth/mfa/setup/confirm': jsonAnswer({ ...signUp, is_new_user: true, ...recoveryCodes }),
  };

  it('with noRedirect stays, and its redirect then goes where the sign-in would have gone', async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Fcart');
    const { app, navigations } = appAnswering(answers);
    const done = await app.confirmMfaSetup('attempt-setup', '654321', { noRedirect: true });
    expect(done.recoveryCodes).toEqual(recoveryCodes.recovery_codes);
    expect(navigations).toEqual([]);
    // The page moving meanwhile does not change where the sign-in goes.
    window.history.replaceState(null, '', '/handler/sign-in');
    await done.redirect();
    expect(navigations).toEqual(['/cart']);
  });

  it('takes a returnTo, and without any goes to the after-sign-up page of a new user', async () => {
    window.history.replaceState(null, '', '/handler/oauth-callback');
    const given = appAnswering(answers);
    await given.app.confirmMfaSetup('attempt-setup', '654321', { returnTo: '/projects/new' });
    expect(given.navigations).toEqual(['/projects/new']);
    const plain = appAnswering(answers);
    await (await plain.app.confirmMfaSetup('attempt-setup', '654321', { noRedirect: true })).redirect();
    expect(plain.navigations).toEqual(['/welcome']);
  });
});
