// @vitest-environment node
import '../test-support/dom-in-node.js';
import { KnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { axeViolations } from '../test-support/axe.js';
import { createFakeApp, fakeUser } from '../test-support/fake-app.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { SignOut } from './sign-out.js';

afterEach(cleanup);

function renderFailing() {
  const user = fakeUser();
  user.signOut.mockRejectedValueOnce(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'));
  user.signOut.mockReturnValue(new Promise(() => {}));
  render(
    <LatchkeyProvider app={createFakeApp({ user }).app}>
      <SignOut />
    </LatchkeyProvider>,
  );
  return user;
}

describe('SignOut', () => {
  it('has no axe violations while signing out and after a failure', async () => {
    const user = fakeUser();
    user.signOut.mockReturnValue(new Promise(() => {}));
    render(
      <LatchkeyProvider app={createFakeApp({ user }).app}>
        <SignOut />
      </LatchkeyProvider>,
    );
    await act(async () => {});
    expect(screen.getByRole('status').textContent).toBe('Ending your session');
    expect(await axeViolations()).toEqual([]);
    cleanup();
    renderFailing();
    await act(async () => {});
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Could not sign you out');
    expect(await axeViolations()).toEqual([]);
  });

  it('tries again from the keyboard: Tab to "Try again", Enter', async () => {
    const user = renderFailing();
    await act(async () => {});
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    await keys.keyboard('{Enter}');
    expect(user.signOut).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signing out…');
    await keys.tab();
    expect(document.activeElement).toBe(document.body); // nothing to press while it works
  });

  it('rewords the failure and its texts, and forwards its ref and props to the page element', async () => {
    const user = fakeUser();
    user.signOut.mockRejectedValueOnce(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'));
    const ref = createRef<HTMLDivElement>();
    render(
      <LatchkeyProvider app={createFakeApp({ user }).app}>
        <SignOut
          ref={ref}
          data-testid="page"
          labels={{ tryAgain: 'Réessayer' }}
          messages={{ REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 'Déjà déconnecté.' }}
        />
      </LatchkeyProvider>,
    );
    await act(async () => {});
    expect(ref.current).toBe(screen.getByTestId('page'));
    expect(screen.getByRole('alert').textContent).toBe('Déjà déconnecté.');
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeTruthy();
  });
});

describe('SignOut on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('ends the session at the service and goes to the after-sign-out page', async () => {
    const { app, navigations } = realApp(service);
    await app.signUpWithCredential({ email: uniqueEmail(), password: 'correct-horse-battery', noRedirect: true });
    render(
      <LatchkeyProvider app={app}>
        <SignOut />
      </LatchkeyProvider>,
    );
    await waitFor(() => expect(navigations).toEqual(['/']), { timeout: 10_000 });
    expect(await app.getUser()).toBeNull();
  });

  it('goes straight to the after-sign-out page when nobody is signed in', async () => {
    const { app, navigations } = realApp(service);
    render(
      <LatchkeyProvider app={app}>
        <SignOut />
      </LatchkeyProvider>,
    );
    await waitFor(() => expect(navigations).toEqual(['/']), { timeout: 10_000 });
  });
});
