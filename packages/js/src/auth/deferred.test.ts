/**
 * The methods `ClientApp` and `CurrentUser` load on call are exactly those
 * their modules write: a name missing on either side would be a method that
 * is not there, or one that fails only when called.
 */
import { describe, expect, it } from 'vitest';
import { answeringApp, signedInTokens } from '../test-support/answering-app.js';
import { jsonAnswer, recordedAnswers } from '../test-support/answers.js';

describe('methods loaded on call', () => {
  it('are on the app or the user, each one that the loaded module writes', async () => {
    const { app } = answeringApp(
      { 'GET /users/me': jsonAnswer(recordedAnswers.currentUser) },
      { tokenStore: { ...signedInTokens } },
    );
    const user = await app.getUser({ or: 'throw' });
    const onApp = (name: string) => typeof (app as unknown as Record<string, unknown>)[name] === 'function';
    const onUser = (name: string) => typeof (user as unknown as Record<string, unknown>)[name] === 'function';
    const security = Object.keys((await import('./account-security.js')).methods);
    const emails = Object.keys((await import('./email-flows.js')).methods);
    expect(security.filter((name) => !onApp(name) && !onUser(name))).toEqual([]);
    expect(emails.filter((name) => !onApp(name))).toEqual([]);
    expect(security.filter((name) => onApp(name)).sort()).toEqual([
      'confirmMfaSetup',
      'signInWithMfa',
      'signInWithPasskey',
      'startMfaSetup',
    ]);
    expect(security.filter((name) => onUser(name)).sort()).toEqual([
      'confirmTotp',
      'disableTotp',
      'enableTotp',
      'listPasskeys',
      'regenerateRecoveryCodes',
      'registerPasskey',
    ]);
    expect(emails).toHaveLength(6);
  });
});
