/**
 * The Passkeys and Two-step sign-in sections of AccountSettings on the real
 * `ClientApp` over recorded answers: the passkey list (name, dates), rename,
 * remove after a confirmation; two-step sign-in turned on (QR code, key,
 * confirm, recovery codes), its codes regenerated and turned off with a
 * current code, a wrong code refused. (Adding a passkey needs an
 * authenticator: the Chromium e2e test does it.)
 */
import { KnownError } from '@latchkey/protocol';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import {
  answeringApp,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
  type SentRequest,
  userAnswer,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { AccountSettings } from './account-settings.js';

afterEach(cleanup);

const { passkeyList, totpEnrolment, recoveryCodes, project } = recordedAnswers;

/** A signed-in user of a project with passkeys, whose passkeys and TOTP the service keeps as the calls change them. */
function accountService({ totpOn = false } = {}) {
  let passkeys = [...passkeyList.items];
  let on = totpOn;
  const app = answeringApp(
    (request: SentRequest) => {
      const call = `${request.method} ${request.path}`;
      const body = request.body as Record<string, string> | undefined;
      if (call === 'GET /projects/current') {
        return jsonAnswer({ ...project, config: { ...project.config, passkey_enabled: true } });
      }
      if (call === 'GET /users/me') {
        return jsonAnswer(userAnswer({ requires_totp_mfa: on, passkey_auth_enabled: passkeys.length > 0 }));
      }
      if (call === 'GET /users/me/passkeys') return jsonAnswer({ ...passkeyList, items: passkeys });
      const passkeyPath = /^\/users\/me\/passkeys\/(.+)$/.exec(request.path);
      if (passkeyPath && request.method === 'PATCH') {
        passkeys = passkeys.map((passkey) => (passkey.id === passkeyPath[1] ? { ...passkey, ...body } : passkey));
        return jsonAnswer({});
      }
      if (passkeyPath && request.method === 'DELETE') {
        passkeys = passkeys.filter((passkey) => passkey.id !== passkeyPath[1]);
        return jsonAnswer({ success: true });
      }
      if (call === 'POST /users/me/mfa/totp') return jsonAnswer(totpEnrolment);
      const rightCode = body?.totp === '123456';
      if (call === 'POST /users/me/mfa/totp/confirm' && rightCode) {
        on = true;
        return jsonAnswer(recoveryCodes);
      }
      if (call === 'POST /users/me/mfa/recovery-codes' && rightCode) {
        return jsonAnswer({ recovery_codes: recoveryCodes.recovery_codes.map((code) => code.toUpperCase()) });
      }
      if (call === 'DELETE /users/me/mfa/totp' && rightCode) {
        on = false;
        return jsonAnswer({ success: true });
      }
      if (request.path.startsWith('/users/me/mfa')) return knownErrorAnswer(new KnownError('INVALID_TOTP_CODE'));
      throw new Error(`no recorded answer for ${call}`);
    },
    { signedIn: true },
  );
  return app;
}

function show(service: ReturnType<typeof accountService>, section: string) {
  visit(`/handler/account-settings#${section}`);
  render(
    <LatchkeyProvider app={service.app}>
      <AccountSettings />
    </LatchkeyProvider>,
  );
}

const statusText = () =>
  screen
    .getAllByRole('status')
    .map((region) => region.textContent)
    .join(' ');

describe('the Passkeys section', () => {
  it('lists the passkeys with their dates, renames one in place and removes one after a confirmation', async () => {
    const service = accountService();
    const user = userEvent.setup();
    show(service, 'passkeys');
    const list = await screen.findByRole('list', { name: 'Your passkeys' }, { timeout: 5_000 });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.lk-email-address')?.textContent)).toEqual(['Passkey', 'Work laptop']);
    expect(rows[0]?.textContent).toMatch(/Created .*2026.*, last used /);
    expect(rows[1]?.textContent).toContain('never used');
    expect(await axeViolations()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(document.activeElement).toBe(name);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a name.')).toBeTruthy();
    await user.type(name, 'Phone{Enter}');
    await waitFor(() => expect(statusText()).toContain('The passkey is now called Phone.'));
    expect(within(list).getByText('Phone')).toBeTruthy();
    expect(service.requests.find((request) => request.method === 'PATCH')?.body).toEqual({ name: 'Phone' });

    await user.click(screen.getByRole('button', { name: 'Remove Passkey' }));
    expect(screen.getByText('Remove Passkey? You will no longer sign in with it.')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(screen.getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(within(list).queryByText('Passkey')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Passkeys' }));
    expect(service.calls).toContain('DELETE /users/me/passkeys/7d0c2f4e-1b3a-4c5d-8e9f-0a1b2c3d4e5f');
  });
});

describe('the Two-step sign-in section', () => {
  it('turns two-step sign-in on: QR code and key, a wrong code refused, then the recovery codes once', async () => {
    const service = accountService();
    const user = userEvent.setup();
    show(service, 'two-step');
    expect(await screen.findByText('Two-step sign-in is off', {}, { timeout: 5_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const field = screen.getByLabelText('Code from the app, to confirm');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.type(field, '999999');
    await waitFor(() =>
      expect(screen.getByText('Invalid code. Check your authenticator app and try again.')).toBeTruthy(),
    );
    await user.type(field, '123456');
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('link', { name: 'Download as .txt' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Two-step sign-in is on')).toBeTruthy();
    expect(statusText()).toContain('Two-step sign-in is on.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Regenerate recovery codes' }));
  });

  it('regenerates the recovery codes and turns two-step sign-in off, each after a current code', async () => {
    const service = accountService({ totpOn: true });
    const user = userEvent.setup();
    show(service, 'two-step');
    await user.click(await screen.findByRole('button', { name: 'Regenerate recovery codes' }, { timeout: 5_000 }));
    const field = screen.getByLabelText('Current code from your authenticator app');
    expect(document.activeElement).toBe(field);
    await user.type(field, '123456');
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getByText('A7K2-9MQX-4TZ8-P3WD')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(statusText()).toContain('New recovery codes replace your old ones.'));

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    const again = screen.getByLabelText('Current code from your authenticator app');
    await user.type(again, '000000');
    await waitFor(() =>
      expect(screen.getByText('Invalid code. Check your authenticator app and try again.')).toBeTruthy(),
    );
    await user.type(again, '123456');
    expect(await screen.findByText('Two-step sign-in is off')).toBeTruthy();
    expect(statusText()).toContain('Two-step sign-in is off.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Turn on' }));
    expect(service.requests.filter((request) => request.path === '/users/me/mfa/totp').map((r) => r.body)).toEqual([
      { totp: '000000' },
      { totp: '123456' },
    ]);
  });
});
