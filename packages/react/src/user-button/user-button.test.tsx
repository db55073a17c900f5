// @vitest-environment node
import '../test-support/dom-in-node.js';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialsOf } from '../internal/avatar.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answers,
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  userAnswer,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { UserButton } from './user-button.js';

afterEach(cleanup);

/** The real SDK, signed in as Ada (the recorded session), `answers` over hers and a sign-out the service accepts. */
function signedInApp(answers: Answers = {}, urls?: { afterSignOut: string }) {
  return answeringApp(
    {
      'GET /users/me': () => jsonAnswer(userAnswer()),
      'DELETE /auth/sessions/current': () => jsonAnswer({}),
      ...answers,
    },
    { signedIn: true, ...(urls ? { urls } : {}) },
  );
}

const accountMenu = () => screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });

async function renderButton(answers: Answers = {}) {
  const page = signedInApp(answers, { afterSignOut: '/bye' });
  render(
    <LatchkeyProvider app={page.app} theme="dark">
      <UserButton />
      <a href="/elsewhere">elsewhere</a>
    </LatchkeyProvider>,
  );
  return { page, trigger: await accountMenu() };
}

/** How many times the SDK asked the service to end the session. */
const signOuts = (calls: string[]) => calls.filter((call) => call === 'DELETE /auth/sessions/current').length;

describe('UserButton', () => {
  it('shows initials on a closed menu button, themed', async () => {
    const { trigger } = await renderButton();
    expect(trigger.textContent).toContain('AL');
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(trigger.closest('.lk-root')?.getAttribute('data-lk-theme')).toBe('dark');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('renders nothing when nobody is signed in', async () => {
    const page = answeringApp({ 'GET /users/me': () => knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER') });
    const { container } = render(
      <LatchkeyProvider app={page.app}>
        <UserButton />
      </LatchkeyProvider>,
    );
    await waitFor(() => expect(container.innerHTML).toBe(''));
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('opens on click with who is signed in, focusing "Account settings", a link to that page', async () => {
    const { trigger } = await renderButton();
    fireEvent.click(trigger);
    const menu = screen.getByRole('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(menu.textContent).toContain('ada@example.com');
    expect(menu.textContent).toContain('Ada Lovelace');
    const settings = screen.getByRole('menuitem', { name: 'Account settings' });
    expect(document.activeElement).toBe(settings);
    expect(settings.getAttribute('href')).toBe('/handler/account-settings');
  });

  it('opens with ArrowDown and closes with Escape, returning focus to the button', async () => {
    const { trigger } = await renderButton();
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    const settings = screen.getByRole('menuitem', { name: 'Account settings' });
    const item = screen.getByRole('menuitem', { name: 'Sign out' });
    expect(document.activeElement).toBe(settings);
    fireEvent.keyDown(settings, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(item);
    fireEvent.keyDown(item, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(settings); // the last item wraps to the first
    fireEvent.keyDown(settings, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('closes on Tab and on a click outside', async () => {
    const { trigger } = await renderButton();
    fireEvent.click(trigger);
    fireEvent.keyDown(screen.getByRole('menuitem', { name: 'Sign out' }), { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(trigger);
    fireEvent.mouseDown(screen.getByRole('link', { name: 'elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('signs out to the after-sign-out page, showing progress', async () => {
    const held = heldAnswer();
    const { trigger, page } = await renderButton({ 'DELETE /auth/sessions/current': () => held.promise });
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    const item = await screen.findByRole('menuitem', { name: 'Signing out…' });
    expect(item.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(item);
    await waitFor(() => expect(signOuts(page.calls)).toBe(1));
    expect(page.navigations).toEqual([]);
    await act(async () => held.release(jsonAnswer({})));
    await waitFor(() => expect(page.navigations).toEqual(['/bye']));
    expect(signOuts(page.calls)).toBe(1);
  });

  it('on a refused sign-out, still ends the session on this page: the button goes, nothing navigates', async () => {
    // The SDK forgets the session whatever the service answers (the sign-out
    // is the person's wish), so the menu's failure message cannot show here.
    const { trigger, page } = await renderButton({
      'DELETE /auth/sessions/current': () => knownErrorAnswer('INVALID_PUBLISHABLE_CLIENT_KEY'),
    });
    fireEvent.click(trigger);
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out' })));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(page.navigations).toEqual([]);
    expect(signOuts(page.calls)).toBe(1);
    expect(await page.app.getUser()).toBeNull();
  });

  it('shows the profile picture when there is one', async () => {
    const page = signedInApp({
      'GET /users/me': () => jsonAnswer(userAnswer({ profile_image_url: 'https://img.example/ada.png' })),
    });
    render(
      <LatchkeyProvider app={page.app}>
        <UserButton showName />
      </LatchkeyProvider>,
    );
    const trigger = await accountMenu();
    expect(trigger.querySelector('img')?.getAttribute('src')).toBe('https://img.example/ada.png');
    expect(trigger.textContent).toContain('Ada Lovelace');
  });
});

describe('UserButton, accessibility and keyboard', () => {
  async function renderInHeader() {
    const page = signedInApp();
    render(
      <LatchkeyProvider app={page.app}>
        <header>
          <UserButton showName />
        </header>
        <main>
          <a href="/next">next</a>
        </main>
      </LatchkeyProvider>,
    );
    return accountMenu();
  }

  it('has no axe violations, closed or open', async () => {
    const trigger = await renderInHeader();
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(trigger);
    expect(await axeViolations()).toEqual([]);
  });

  it('opens with Enter or Space on the focused button, closes with Escape back to it, and lets Tab move on', async () => {
    const trigger = await renderInHeader();
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Account settings' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard(' ');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Account settings' }));
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'next' }));
  });

  it('opens on ArrowUp at the last item; Home and End stay within the menu', async () => {
    const trigger = await renderInHeader();
    const user = userEvent.setup();
    trigger.focus();
    await user.keyboard('{ArrowUp}');
    const item = screen.getByRole('menuitem', { name: 'Sign out' });
    expect(document.activeElement).toBe(item);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Account settings' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(item);
  });

  it('forwards its ref and other props to its root, and takes its words from the labels', async () => {
    const page = signedInApp();
    const ref = createRef<HTMLDivElement>();
    render(
      <LatchkeyProvider
        app={page.app}
        labels={{
          accountMenuFor: ({ name }) => `Compte de ${name}`,
          accountMenu: 'Compte',
          accountMenuSettings: 'Paramètres du compte',
          signOut: 'Se déconnecter',
        }}
      >
        <UserButton ref={ref} className="mine" data-testid="user" />
      </LatchkeyProvider>,
    );
    await screen.findByRole('button', { name: 'Compte de Ada Lovelace' });
    expect(ref.current).toBe(screen.getByTestId('user'));
    expect(ref.current?.className).toBe('lk-root lk-user-button mine');
    fireEvent.click(screen.getByRole('button', { name: 'Compte de Ada Lovelace' }));
    expect(screen.getByRole('menu', { name: 'Compte' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Paramètres du compte' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Se déconnecter' })).toBeTruthy();
  });
});

describe('UserButton on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('shows who signed in, signs them out through the service and goes to the after-sign-out page', async () => {
    const { app, navigations } = realApp(service);
    const email = uniqueEmail('grace');
    await app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true });
    render(
      <LatchkeyProvider app={app}>
        <UserButton showName />
      </LatchkeyProvider>,
    );
    const trigger = await screen.findByRole('button', { name: `Account menu for ${email}` }, { timeout: 10_000 });
    expect(trigger.textContent).toContain(email[0]!.toUpperCase());
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(navigations).toEqual(['/']), { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByRole('button')).toBeNull()); // signed out: nothing to show
    expect(await app.getUser()).toBeNull();
  });
});

describe('initialsOf', () => {
  it('takes the first and last name, else the e-mail', () => {
    expect(initialsOf({ displayName: 'grace brewster hopper', primaryEmail: null })).toBe('GH');
    expect(initialsOf({ displayName: 'Ada', primaryEmail: null })).toBe('A');
    expect(initialsOf({ displayName: '  ', primaryEmail: 'zoe@example.com' })).toBe('Z');
    expect(initialsOf({ displayName: null, primaryEmail: null })).toBe('?');
  });
});
