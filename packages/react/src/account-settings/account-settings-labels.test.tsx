// @vitest-environment node
/**
 * Every word of AccountSettings comes from the labels table (or the error
 * wording): render it with a pseudo-translation (each label replaced by a
 * marker) through the states of every section, on the real SDK and service,
 * and check that no other words are left but the user's own data, and that
 * every `account…` label was shown.
 */
import '../test-support/dom-in-node.js';
import { ClientApp } from '@latchkey/js';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLabels } from '../labels.js';
import { formMessages } from '../messages.js';
import { LatchkeyProvider } from '../provider.js';
import { visit } from '../test-support/page.js';
import { pseudoLabels } from '../test-support/pseudo-labels.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { AccountSettings } from './account-settings.js';

let service: TestService;
beforeAll(async () => {
  service = await startRealService();
}, 60_000);
afterAll(async () => {
  cleanup();
  await service?.close();
});

/**
 * Labels no scene here can reach: an image that stays too large at 96 px (jsdom cannot
 * decode images; Chromium covers uploads), a failed or empty address list, and busy texts
 * that last one request.
 */
const unreachable = new Set([
  'accountImageTooLarge',
  'accountEmailsLoadFailed',
  'accountEmailsEmpty',
  'accountEmailsLoading',
  'accountSaving',
  'accountEmailAddBusy',
  // Sessions and Security activity: an empty or failed list, and busy texts; a network needs the client's
  // address, which the in-process service has none of (e2e/account-security.test.ts shows it in Chromium).
  'accountSessionsLoading',
  'accountSessionsLoadFailed',
  'accountSessionsEmpty',
  'accountActivityLoading',
  'accountActivityLoadFailed',
  'accountActivityEmpty',
  'accountActivityNetwork',
  'accountDeleteBusy',
]);

const pseudo = pseudoLabels;

const seen = new Set<string>();
const leftovers: string[] = [];
let userData: RegExp = /$^/;

function collect() {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const element of document.body.querySelectorAll('*')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  for (const text of texts) {
    for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
    // Left out: the user's data (name, initials, addresses), and the URL placeholder.
    let rest = text
      .replace(/⟦[^⟧]*⟧/g, '')
      .replace(userData, '')
      .replace('https://', '');
    // The wording of form messages is the messages table's, not the labels'.
    for (const message of Object.values(formMessages)) rest = rest.replace(message, '');
    if (/[A-Za-z]/.test(rest)) leftovers.push(rest.trim());
  }
}

/** Runs `step`, then collects once `until` holds. */
async function step(work: () => void | Promise<void>, until: () => void) {
  await act(async () => {
    await work();
  });
  await waitFor(until, { timeout: 5_000 });
  collect();
}

const marker = (key: string) => screen.getAllByText(new RegExp(`⟦${key}[⟧:]`)).length > 0;
const expectMarker = (key: string) => () => expect(marker(key)).toBe(true);
const input = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
const type = (name: string, value: string) => () => {
  fireEvent.change(input(name), { target: { value } });
};
const submit = (name: string) => () => {
  fireEvent.submit(input(name).closest('form')!);
};
const press = (text: string) => () => {
  // The last one: the newest address's, when each row has one.
  fireEvent.click(screen.getAllByText(`⟦${text}⟧`).at(-1)!.closest('button, a')!);
};

function show(app: ClientApp, hash: string) {
  cleanup();
  visit(`/handler/account-settings#${hash}`);
  render(
    <LatchkeyProvider app={app} labels={pseudo}>
      <AccountSettings />
    </LatchkeyProvider>,
  );
  collect(); // the loading state
}

describe('AccountSettings labels', () => {
  it('hold all its words in every section and state, and every account label is used', async () => {
    const email = uniqueEmail('ada');
    const other = uniqueEmail('work');
    const { app } = realApp(service);
    await app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true });
    userData = new RegExp(`${email}|${other}|\\bAL\\b|\\bA\\b|Ada Lovelace`, 'g');

    show(app, 'profile');
    await step(() => {}, expectMarker('accountDisplayNameLabel'));
    await step(type('displayName', 'Ada Lovelace'), expectMarker('accountCancel'));
    await step(submit('displayName'), expectMarker('accountSaved'));
    await step(type('profileImageUrl', 'nope'), () => {});
    await step(submit('profileImageUrl'), expectMarker('accountImageUrlInvalid'));
    await step(type('profileImageUrl', 'https://images.example/a.png'), () => {});
    await step(submit('profileImageUrl'), expectMarker('accountImageUpdated'));
    await step(press('accountImageRemove'), expectMarker('accountImageRemoved'));
    const file = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await step(
      () => void fireEvent.change(file, { target: { files: [new File(['x'], 'x.txt', { type: 'text/plain' })] } }),
      expectMarker('accountImageUnreadable'),
    );

    show(app, 'password');
    await step(() => {}, expectMarker('accountPasswordChangeSubmit'));
    await step(submit('currentPassword'), expectMarker('accountNewPasswordRequired'));
    await step(type('currentPassword', 'wrong-password'), () => {});
    await step(type('nextPassword', 'staple-horse-battery'), () => {});
    await step(type('confirmPassword', 'other-horse-battery'), () => {});
    await step(submit('currentPassword'), expectMarker('accountPasswordsDiffer'));
    await step(type('confirmPassword', 'staple-horse-battery'), () => {});
    await step(submit('currentPassword'), expectMarker('accountCurrentPasswordWrong'));
    await step(type('currentPassword', 'correct-horse-battery'), () => {});
    await step(submit('currentPassword'), expectMarker('accountPasswordChanged'));

    // Two more sessions of the same person: one ended from its row, the other by "everywhere else".
    for (let i = 0; i < 2; i++) {
      await realApp(service).app.signInWithCredential({ email, password: 'staple-horse-battery', noRedirect: true });
    }
    show(app, 'sessions');
    await step(() => {}, expectMarker('accountSessionThisDevice'));
    await step(press('accountSessionEnd'), expectMarker('accountSessionEndConfirm'));
    const sessionRows = () =>
      within(screen.getByRole('list', { name: '⟦accountSessionsListTitle⟧' })).getAllByRole('listitem');
    await waitFor(() => expect(sessionRows()).toHaveLength(3));
    await step(press('accountSessionEndSubmit'), () => expect(sessionRows()).toHaveLength(2));
    await step(press('accountSessionOthersSubmit'), expectMarker('accountSessionOthersConfirm'));
    await step(press('accountSessionOthersSubmit'), expectMarker('accountSessionOthersDone'));

    show(app, 'security-activity');
    await step(() => {}, expectMarker('accountActivityEvent'));

    show(app, 'emails');
    await step(() => {}, expectMarker('accountEmailPrimary'));
    await step(type('email', 'nope'), () => {});
    await step(submit('email'), () => expect(input('email').getAttribute('aria-invalid')).toBe('true'));
    await step(type('email', other), () => {});
    await step(submit('email'), expectMarker('accountEmailAdded'));
    await step(press('accountEmailVerify'), () => {});
    await waitFor(expectMarker('accountEmailVerificationSent'), { timeout: 5_000 });
    collect();
    const mails = await service.fetch(`/mailbox/api/messages?to=${encodeURIComponent(other)}`);
    const [mail] = ((await mails.json()) as { items: { text: string }[] }).items;
    const code = /[?&]code=([0-9a-z]{45})/i.exec(mail?.text ?? '')?.[1] ?? '';
    await step(() => app.verifyEmail(code), expectMarker('accountEmailVerified'));
    const optionsOf = (address: string) => () => {
      fireEvent.click(screen.getByRole('button', { name: `⟦accountEmailOptionsFor:${address}⟧` }));
    };
    await step(optionsOf(other), expectMarker('accountEmailMakePrimary'));
    await step(press('accountEmailMakePrimary'), expectMarker('accountEmailMadePrimary'));
    await step(optionsOf(other), expectMarker('accountEmailUseForSignIn'));
    await step(press('accountEmailUseForSignIn'), expectMarker('accountEmailSignInOn'));
    await step(optionsOf(email), expectMarker('accountEmailStopSignIn'));
    await step(press('accountEmailStopSignIn'), expectMarker('accountEmailSignInOff'));
    await step(optionsOf(other), expectMarker('accountEmailRemove'));
    await step(press('accountEmailRemove'), expectMarker('accountEmailRemoveWarning'));

    // A user without a password sets one.
    const server = {
      'content-type': 'application/json',
      'x-stack-project-id': service.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': service.keys.secretServerKey,
    };
    const created = await service.fetch('/api/v1/users', {
      method: 'POST',
      headers: server,
      body: JSON.stringify({ primary_email: uniqueEmail('nopass'), primary_email_auth_enabled: true }),
    });
    const { id } = (await created.json()) as { id: string };
    const session = await service.fetch('/api/v1/auth/sessions', {
      method: 'POST',
      headers: server,
      body: JSON.stringify({ user_id: id, expires_in_millis: 3_600_000 }),
    });
    const tokens = (await session.json()) as { access_token: string; refresh_token: string };
    const passwordless = new ClientApp({
      projectId: service.projectId,
      publishableClientKey: service.keys.publishableClientKey,
      baseUrl: service.url,
      tokenStore: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
      fetch: service.fetch,
      navigate: () => {},
    });
    show(passwordless, 'password');
    await step(() => {}, expectMarker('accountPasswordSetSubmit'));
    await step(type('nextPassword', 'first-horse-battery'), () => {});
    await step(type('confirmPassword', 'first-horse-battery'), () => {});
    await step(submit('nextPassword'), expectMarker('accountPasswordSet'));

    // A project that lets users delete themselves: the typed confirmation, refused when it differs.
    const patched = await service.fetch('/api/v1/projects/current', {
      method: 'PATCH',
      headers: {
        ...server,
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': service.keys.superSecretAdminKey,
      },
      body: JSON.stringify({ config: { client_user_deletion_enabled: true } }),
    });
    expect(patched.status).toBe(200);
    await passwordless.invalidate('project');
    userData = new RegExp(`${userData.source}|\\bN\\b`, 'g'); // the passwordless user's initial ("nopass-…")
    show(passwordless, 'profile');
    await step(() => {}, expectMarker('accountDeleteOpen'));
    await step(press('accountDeleteOpen'), expectMarker('accountDeleteConfirmLabel'));
    await step(type('confirm', 'delete'), () => {});
    await step(submit('confirm'), expectMarker('accountDeleteMismatch'));

    expect(leftovers).toEqual([]);
    // The Teams section's labels are proven by teams/teams-ui.test.tsx, Connected accounts' by oauth/oauth-ui.test.tsx,
    // the Passkeys and Two-step sections' by mfa/mfa-labels.test.tsx.
    const accountLabels = Object.keys(englishLabels).filter(
      (key) => key.startsWith('account') && !/^account(Menu|Team|Connect|Disconnect|Passkey|Mfa)/.test(key),
    );
    expect(accountLabels.filter((key) => !seen.has(key) && !unreachable.has(key))).toEqual([]);
    expect([...unreachable].filter((key) => !(key in englishLabels))).toEqual([]);
  }, 60_000);
});
