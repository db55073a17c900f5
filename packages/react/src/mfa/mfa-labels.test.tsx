/**
 * Every word of the passkey and two-step parts comes from the labels table:
 * the sign-in page's passkey button, the sign-up page's passkey sign-up, the code step, the forced set-up, and
 * the Passkeys and Two-step sections, rendered with a pseudo-translation on
 * the real `ClientApp` over recorded answers; no other word is left but the
 * user's data, and every `mfa…`, `passkey…`, `accountPasskey…` and
 * `accountMfa…` label is shown (the few only a held request shows, listed).
 */
import { KnownError } from '@latchkey/protocol';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountSettings } from '../account-settings/account-settings.js';
import { SignIn, SignUp } from '../credential/credential-pages.js';
import { englishLabels } from '../labels.js';
import { LatchkeyProvider } from '../provider.js';
import {
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
  type SentRequest,
  userAnswer,
} from '../test-support/answering-app.js';
import { visit } from '../test-support/page.js';
import { pseudoLabels } from '../test-support/pseudo-labels.js';

afterEach(cleanup);

/**
 * Not reached here: busy texts of one quick request and the loading of a chunk
 * or a list; a list that fails or is empty; a passkey added (it needs an
 * authenticator: the Chromium e2e test adds one).
 */
const unreachable = new Set([
  'mfaLoading',
  'mfaBusy',
  'mfaConfirmBusy',
  'accountMfaTurnOnBusy',
  'accountPasskeysLoading',
  'accountPasskeysLoadFailed',
  'accountPasskeysEmpty',
  'accountPasskeyAdded',
]);

const seen = new Set<string>();
const leftovers: string[] = [];
const userData =
  /Ada Lovelace|ada@example\.com|\bAL\b|Passkey|Work laptop|JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP|[0-9a-z]{4}(-[0-9a-z]{4}){3}|Enter (the six characters|your e-mail|your password)[^⟦]*|·|,/gi;

function collect() {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of document.body.querySelectorAll('*')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'download']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  for (const text of texts) {
    for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
    const rest = text.replace(/⟦[^⟧]*⟧/g, '').replace(userData, '');
    if (/[A-Za-z]/.test(rest)) leftovers.push(rest.trim());
  }
}

// The whole key: \`⟦passkeySignUpCreate\` must not be found in \`⟦passkeySignUpCreateText⟧\`.
const marker = (key: string) => () => expect(document.body.textContent).toMatch(new RegExp(`⟦${key}[⟧:]`));
async function step(work: () => void, until: () => void) {
  work();
  await waitFor(until, { timeout: 5_000 });
  collect();
}
const press = (key: string) => () => {
  const target = [...document.querySelectorAll('button, a')].find(
    (element) => element.textContent === `⟦${key}⟧` || element.getAttribute('aria-label')?.startsWith(`⟦${key}`),
  );
  if (!target) throw new Error(`no button ${key}`);
  fireEvent.click(target);
};
const typeIn = (selector: string, value: string) => () => {
  fireEvent.change(document.querySelector(selector)!, { target: { value } });
};
const submitForm = (selector: string) => () => {
  fireEvent.submit(document.querySelector(selector)!.closest('form')!);
};

function page(app: ReturnType<typeof answeringApp>['app'], node: ReactNode) {
  render(
    <LatchkeyProvider app={app} labels={pseudoLabels}>
      {node}
    </LatchkeyProvider>,
  );
  collect();
}

const attempt = (code: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED' | 'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED') => () =>
  knownErrorAnswer(new KnownError(code, { attempt_code: 'a'.repeat(45) }));
const { project } = recordedAnswers;
const withPasskeys = () => jsonAnswer({ ...project, config: { ...project.config, passkey_enabled: true } });

async function signInScenes() {
  visit('/handler/sign-in');
  // The passkey button, busy while the service is asked.
  const busy = answeringApp({
    'GET /projects/current': withPasskeys,
    'POST /auth/passkey/initiate-passkey-authentication': () => heldAnswer().promise,
  });
  page(busy.app, <SignIn />);
  await step(() => {}, marker('passkeySignIn'));
  await step(press('passkeySignIn'), marker('passkeySignInBusy'));
  cleanup();

  // The code step: too short, a wrong code, the recovery code.
  const codeStep = answeringApp({
    'GET /projects/current': () => jsonAnswer(project),
    'POST /auth/password/sign-in': attempt('MULTI_FACTOR_AUTHENTICATION_REQUIRED'),
    'POST /auth/mfa/sign-in': () => knownErrorAnswer('INVALID_TOTP_CODE'),
  });
  page(codeStep.app, <SignIn />);
  await step(typeIn('[name="email"]', 'ada@example.com'), () => {});
  await step(typeIn('[name="password"]', 'correct-horse-battery'), () => {});
  await step(submitForm('[name="password"]'), marker('mfaCodeLabel'));
  await step(submitForm('[name="totp"]'), marker('mfaCodeRequired'));
  await step(typeIn('[name="totp"]', '123456'), marker('mfaCodeInvalid'));
  await step(press('mfaUseRecoveryCode'), marker('mfaRecoveryCodeLabel'));
  await step(submitForm('[name="recoveryCode"]'), marker('mfaRecoveryCodeRequired'));
  cleanup();

  // The forced set-up, through the recovery codes.
  const setup = answeringApp({
    'GET /projects/current': () => jsonAnswer(project),
    'POST /auth/password/sign-in': attempt('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED'),
    'POST /auth/mfa/setup': () => jsonAnswer(recordedAnswers.totpEnrolment),
    'POST /auth/mfa/setup/confirm': () => jsonAnswer({ ...recordedAnswers.signUp, ...recordedAnswers.recoveryCodes }),
  });
  page(setup.app, <SignIn />);
  await step(typeIn('[name="email"]', 'ada@example.com'), () => {});
  await step(typeIn('[name="password"]', 'correct-horse-battery'), () => {});
  await step(submitForm('[name="password"]'), marker('mfaSetupLoading'));
  await step(() => {}, marker('mfaSecretLabel'));
  await step(typeIn('[name="totp"]', '123456'), marker('mfaRecoveryCodesTitle'));
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => {} } });
  await step(press('mfaCopyCodes'), marker('mfaCodesCopied'));
  cleanup();
}

/** The sign-up page's passkey sign-up: the code (busy), a passkey refused, then one made (`noRedirect`: the page stays). */
async function signUpScenes() {
  visit('/handler/sign-up');
  const globals = globalThis as { PublicKeyCredential?: unknown };
  globals.PublicKeyCredential = () => {};
  let refuse = true;
  const buffer = (text: string) => new TextEncoder().encode(text).buffer;
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        if (refuse) throw new DOMException('Cancelled', 'NotAllowedError');
        return {
          id: 'cred-1',
          rawId: buffer('cred-1'),
          type: 'public-key',
          response: { clientDataJSON: buffer('{}'), attestationObject: buffer('attestation') },
          getClientExtensionResults: () => ({}),
        };
      },
    },
  });
  const codeAnswer = heldAnswer();
  const signUp = answeringApp({
    'GET /projects/current': () =>
      jsonAnswer({ ...project, config: { ...project.config, passkey_enabled: true, magic_link_enabled: true } }),
    'POST /auth/otp/send-sign-in-code': () => jsonAnswer({ nonce: 'n'.repeat(39) }),
    'POST /auth/otp/sign-in': () => codeAnswer.promise,
    'GET /users/me': () => jsonAnswer(userAnswer()),
    'POST /auth/passkey/initiate-passkey-registration': () => jsonAnswer(recordedAnswers.passkeyRegistrationStarted),
    'POST /auth/passkey/register': () => jsonAnswer({}),
    'GET /users/me/passkeys': () => jsonAnswer(recordedAnswers.passkeyList),
  });
  // The refusal's wording is the catalogue's (`messages`), not a label.
  page(signUp.app, <SignUp noRedirect messages={{ PASSKEY_WEBAUTHN_ERROR: '⟦PASSKEY_WEBAUTHN_ERROR⟧' }} />);
  await step(() => {}, marker('passkeySignUp'));
  await step(press('passkeySignUp'), marker('passkeySignUpPasswordOption'));
  await step(typeIn('[name="email"]', 'ada@example.com'), () => {});
  await step(submitForm('[name="email"]'), marker('passkeySignUpCodeSentTo'));
  await step(typeIn('[name="code"]', 'k7m2xq'), marker('passkeySignUpConfirmBusy'));
  await step(() => codeAnswer.release(jsonAnswer(recordedAnswers.signUp)), marker('passkeySignUpSkip'));
  refuse = false;
  await step(press('tryAgain'), marker('passkeySignUpCreate'));
  cleanup();
  delete globals.PublicKeyCredential;
  Reflect.deleteProperty(navigator, 'credentials');
}

async function settingsScenes() {
  let on = false;
  let passkeys = [...recordedAnswers.passkeyList.items];
  const account = answeringApp(
    (request: SentRequest) => {
      const call = `${request.method} ${request.path}`;
      if (call === 'GET /projects/current') return withPasskeys();
      if (call === 'GET /users/me') return jsonAnswer(userAnswer({ requires_totp_mfa: on }));
      if (call === 'GET /users/me/passkeys') return jsonAnswer({ items: passkeys, is_paginated: false });
      if (call.startsWith('PATCH /users/me/passkeys/')) return jsonAnswer({});
      if (call.startsWith('DELETE /users/me/passkeys/')) {
        passkeys = passkeys.slice(1);
        return jsonAnswer({});
      }
      if (call === 'POST /auth/passkey/initiate-passkey-registration') return heldAnswer().promise;
      if (call === 'POST /users/me/mfa/totp') return jsonAnswer(recordedAnswers.totpEnrolment);
      if (call === 'POST /users/me/mfa/totp/confirm') {
        on = true;
        return jsonAnswer(recordedAnswers.recoveryCodes);
      }
      if (call === 'POST /users/me/mfa/recovery-codes') return jsonAnswer(recordedAnswers.recoveryCodes);
      if (call === 'DELETE /users/me/mfa/totp') {
        on = false;
        return jsonAnswer({});
      }
      throw new Error(`no answer for ${call}`);
    },
    { signedIn: true },
  );
  visit('/handler/account-settings#passkeys');
  page(account.app, <AccountSettings />);
  await step(() => {}, marker('accountPasskeyCreated'));
  await step(press('accountPasskeyRenameFor'), marker('accountPasskeyNameLabel'));
  await step(typeIn('.lk-email-row input', ''), () => {});
  await step(submitForm('.lk-email-row input'), marker('accountPasskeyNameRequired'));
  await step(typeIn('.lk-email-row input', 'Phone'), () => {});
  await step(submitForm('.lk-email-row input'), marker('accountPasskeyRenamed'));
  await step(press('accountPasskeyRemoveFor'), marker('accountPasskeyRemoveConfirm'));
  await step(press('accountPasskeyRemoveSubmit'), () => expect(passkeys).toHaveLength(1));
  await step(submitForm('[placeholder="⟦accountPasskeyNewNamePlaceholder⟧"]'), marker('accountPasskeyAddBusy'));
  cleanup();

  visit('/handler/account-settings#two-step');
  page(account.app, <AccountSettings />);
  await step(() => {}, marker('accountMfaOffTitle'));
  await step(press('accountMfaTurnOn'), marker('mfaConfirmLabel'));
  await step(typeIn('[name="totp"]', '123456'), marker('mfaRecoveryCodesTitle'));
  await step(press('accountMfaDone'), marker('accountMfaTurnedOn'));
  await step(press('accountMfaRegenerate'), marker('accountMfaCurrentCodeLabel'));
  await step(typeIn('[name="totp"]', '123456'), marker('mfaRecoveryCodesTitle'));
  await step(press('accountMfaDone'), marker('accountMfaRegenerated'));
  await step(press('accountMfaTurnOff'), marker('accountMfaTurnOffSubmit'));
  await step(press('accountCancel'), marker('accountMfaTurnOff'));
  await step(press('accountMfaTurnOff'), marker('accountMfaTurnOffSubmit'));
  await step(typeIn('[name="totp"]', '123456'), marker('accountMfaTurnedOff'));
  cleanup();
}

describe('passkey and two-step labels', () => {
  it('hold all the words of the passkey and two-step parts, and every entry is used', async () => {
    await signInScenes();
    await signUpScenes();
    await settingsScenes();
    expect(leftovers).toEqual([]);
    const keys = Object.keys(englishLabels).filter((key) => /^(mfa|passkey|accountPasskey|accountMfa)/.test(key));
    expect(keys.filter((key) => !seen.has(key) && !unreachable.has(key))).toEqual([]);
    expect([...unreachable].filter((key) => !(key in englishLabels))).toEqual([]);
  }, 30_000);
});
