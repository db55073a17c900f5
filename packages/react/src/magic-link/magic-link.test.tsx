// @vitest-environment node
import '../test-support/dom-in-node.js';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignIn } from '../credential/credential-pages.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answer,
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
  type SentRequest,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { lastMailTo, linkCodeOf, realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { MagicLinkCallback } from './magic-link-callback.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/sign-in'));

const nonce = 'n'.repeat(39);

type ProjectConfig = { magic_link_enabled?: boolean; credential_enabled?: boolean };

/** The service as the sign-in page meets it: the project's settings, a code sent, a sign-in accepted. */
function serviceWith(config: ProjectConfig, answer?: Answer): Answer {
  const { project } = recordedAnswers;
  const answers: Record<string, () => Response> = {
    '/projects/current': () => jsonAnswer({ ...project, config: { ...project.config, ...config } }),
    '/auth/otp/send-sign-in-code': () => jsonAnswer({ nonce }),
    '/auth/otp/sign-in': () => jsonAnswer(recordedAnswers.signUp),
  };
  return (request) => answer?.(request) ?? answers[request.path]?.();
}

function renderSignIn(config: ProjectConfig = { magic_link_enabled: true }, answer?: Answer) {
  const answering = answeringApp(serviceWith(config, answer));
  render(
    <LatchkeyProvider app={answering.app} projectName="Acme">
      <SignIn />
    </LatchkeyProvider>,
  );
  return answering.requests;
}

/** The bodies of the requests sent to `path`. */
const sentTo = (requests: SentRequest[], path: string) =>
  requests.filter((request) => request.path === path).map((request) => request.body);
const sendCode = '/auth/otp/send-sign-in-code';
const signInWithCode = '/auth/otp/sign-in';
const callbackUrl = 'http://localhost:3000/handler/magic-link-callback';

describe('SignIn with an e-mailed code', () => {
  it('offers "E-mail me a code" only when the project enables magic link', async () => {
    renderSignIn({ magic_link_enabled: false });
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'E-mail me a code' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/handler/forgot-password',
    );
    cleanup();
    renderSignIn();
    expect(await screen.findByRole('button', { name: 'E-mail me a code' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('goes through by keyboard alone: e-mail, code typed in lower case, sign-in with code + nonce', async () => {
    const requests = renderSignIn();
    const keys = userEvent.setup();
    await screen.findByRole('button', { name: 'E-mail me a code' });
    await keys.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    screen.getByRole('button', { name: 'E-mail me a code' }).focus();
    await keys.keyboard('{Enter}');
    // The typed address is carried over, and the e-mail field takes the focus.
    const email = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(document.activeElement).toBe(email);
    expect(await axeViolations()).toEqual([]);
    await keys.keyboard('{Enter}');
    // The e-mail flows' code loads on the first call: wait for the request.
    await waitFor(() => expect(screen.getByText(/We sent a six-character code to ada@example.com/)).toBeTruthy());
    expect(sentTo(requests, sendCode)).toEqual([{ email: 'ada@example.com', callback_url: callbackUrl }]);
    const code = screen.getByLabelText('Code from the e-mail');
    expect(document.activeElement).toBe(code);
    expect(await axeViolations()).toEqual([]);
    await keys.keyboard('k7m2xq');
    await act(async () => {});
    expect(sentTo(requests, signInWithCode)).toEqual([{ code: `k7m2xq${nonce}` }]);
    expect(sentTo(requests, '/auth/password/sign-in')).toEqual([]);
  });

  it('says a wrong code is wrong, keeps the page, and sends a new code on demand', async () => {
    // The first code typed is wrong; the second is held, then blocked; the second send gives a new nonce.
    const held = heldAnswer();
    const signIns: (() => Response | Promise<Response>)[] = [
      () => knownErrorAnswer('VERIFICATION_CODE_NOT_FOUND'),
      () => held.promise,
    ];
    const nonces = [nonce, 'm'.repeat(39)];
    const requests = renderSignIn({ magic_link_enabled: true, credential_enabled: false }, (request) => {
      if (request.path === signInWithCode) return signIns.shift()?.();
      if (request.path === sendCode) return jsonAnswer({ nonce: nonces.shift() });
      return undefined;
    });
    // Without passwords, the code form is the page.
    await screen.findByRole('button', { name: 'Send me a code' });
    const email = screen.getByLabelText('E-mail');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in with a password instead' })).toBeNull();
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    await act(async () => {});
    const code = screen.getByLabelText('Code from the e-mail');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(sentTo(requests, signInWithCode)).toEqual([]);
    fireEvent.change(code, { target: { value: 'AAAAAA' } });
    await act(async () => {});
    expect(screen.getByText('That code is not right. Check the e-mail and try again.')).toBeTruthy();
    expect(document.activeElement).toBe(code);
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await act(async () => {});
    expect(sentTo(requests, sendCode)).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toContain('A new code is on its way');
    fireEvent.change(code, { target: { value: 'bbbbbb' } });
    await act(async () => {});
    expect(sentTo(requests, signInWithCode).at(-1)).toEqual({ code: `bbbbbb${'m'.repeat(39)}` });
    expect(screen.getByRole('button', { name: 'Signing in…' }).getAttribute('aria-busy')).toBe('true');
    await act(async () => held.release(knownErrorAnswer('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED')));
    expect(screen.getByText('Too many attempts with this code. Please request a new one.')).toBeTruthy();
  });

  it('goes back to the password form, focus on the e-mail field', async () => {
    renderSignIn();
    fireEvent.click(await screen.findByRole('button', { name: 'E-mail me a code' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a password instead' }));
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
  });
});

describe('MagicLinkCallback', () => {
  it('signs in with the link code once under StrictMode', async () => {
    const code = 'c'.repeat(45);
    visit(`/handler/magic-link-callback?code=${code}`);
    // The sign-in is held: the page keeps saying it signs in.
    const { app, requests } = answeringApp(() => new Promise<Response>(() => {}));
    render(
      <StrictMode>
        <LatchkeyProvider app={app}>
          <MagicLinkCallback />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await act(async () => {});
    expect(sentTo(requests, signInWithCode)).toEqual([{ code }]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signing you in…');
    expect(await axeViolations()).toEqual([]);
  });

  it.each([
    ['VERIFICATION_CODE_EXPIRED', 'This link has expired'],
    ['VERIFICATION_CODE_ALREADY_USED', 'This link was already used'],
    ['VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 'This code is blocked'],
  ] as const)('shows %s with the way back to sign-in', async (error, heading) => {
    const { app } = answeringApp(() => knownErrorAnswer(error));
    render(
      <LatchkeyProvider app={app}>
        <MagicLinkCallback code={'d'.repeat(45)} />
      </LatchkeyProvider>,
    );
    await act(async () => {});
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(heading);
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
    expect(await axeViolations()).toEqual([]);
  });
});

describe('magic link on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
    await service.setProjectConfig({ magic_link_enabled: true });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('signs a new address up by the typed code and goes to the after-sign-up page', async () => {
    const { app, navigations } = realApp(service);
    render(
      <LatchkeyProvider app={app}>
        <SignIn />
      </LatchkeyProvider>,
    );
    const email = uniqueEmail('otp');
    const keys = userEvent.setup();
    await keys.click(await screen.findByRole('button', { name: 'E-mail me a code' }, { timeout: 10_000 }));
    await keys.type(screen.getByLabelText('E-mail'), `${email}{Enter}`);
    const codeField = await screen.findByLabelText('Code from the e-mail', {}, { timeout: 10_000 });
    const mail = await lastMailTo(service, email);
    const otp = /\b([0-9A-HJKMNP-TV-Z]{6})\b/.exec(mail.text.replace(/https?:\S+/g, ''))?.[1];
    expect(otp).toBeDefined();
    await keys.type(codeField, otp!.toLowerCase());
    await waitFor(() => expect(navigations).toEqual(['/']), { timeout: 10_000 });
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it('signs in by the link, and a second use of it says it was used', async () => {
    const email = uniqueEmail('link');
    await realApp(service).app.sendMagicLinkEmail(email, {
      callbackUrl: 'http://localhost:3000/handler/magic-link-callback',
    });
    const code = linkCodeOf(await lastMailTo(service, email));
    const { app, navigations } = realApp(service);
    visit(`/handler/magic-link-callback?code=${code}`);
    render(
      <StrictMode>
        <LatchkeyProvider app={app}>
          <MagicLinkCallback />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(navigations).toEqual(['/']), { timeout: 10_000 });
    expect((await app.getUser())?.primaryEmail).toBe(email);
    cleanup();
    render(
      <LatchkeyProvider app={realApp(service).app}>
        <MagicLinkCallback />
      </LatchkeyProvider>,
    );
    expect(
      await screen.findByRole('heading', { name: 'This link was already used' }, { timeout: 10_000 }),
    ).toBeTruthy();
  });
});
