// @vitest-environment node
import '../test-support/dom-in-node.js';
import { KnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answer,
  answeringApp,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { SignOut } from './sign-out.js';

afterEach(cleanup);

const endSession = '/auth/sessions/current';
/** The publishable key was replaced meanwhile: the service refuses to end the session. */
const keyRefused = () =>
  knownErrorAnswer(new KnownError('INVALID_PUBLISHABLE_CLIENT_KEY', { project_id: 'project-answers' }));

/** A signed-in user's app; `endSession` answers the sign-out (default: held, the page keeps signing out). */
function renderSignedIn(ending: Answer = () => new Promise<Response>(() => {}), page = <SignOut />) {
  const answering = answeringApp(
    (request) => {
      if (request.path === '/users/me') return jsonAnswer(recordedAnswers.currentUser);
      if (request.path === '/auth/oauth/token') return jsonAnswer(recordedAnswers.refresh);
      if (request.path === endSession) return ending(request);
      return undefined;
    },
    { signedIn: true },
  );
  render(<LatchkeyProvider app={answering.app}>{page}</LatchkeyProvider>);
  return answering;
}

describe('SignOut', () => {
  it('has no axe violations while signing out and after a failure', async () => {
    renderSignedIn();
    await act(async () => {});
    expect(screen.getByRole('status').textContent).toBe('Ending your session');
    expect(await axeViolations()).toEqual([]);
    cleanup();
    renderSignedIn(keyRefused);
    await act(async () => {});
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Could not sign you out');
    expect(await axeViolations()).toEqual([]);
  });

  it('tries again from the keyboard: Tab to "Try again", Enter', async () => {
    // The refused sign-out still ends the session here, so trying again goes to the after-sign-out page.
    const { requests, navigations } = renderSignedIn(keyRefused);
    await act(async () => {});
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    await keys.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signing out…');
    await act(async () => {});
    expect(requests.filter((request) => request.path === endSession)).toHaveLength(1);
    expect(navigations).toEqual(['/']);
    await keys.tab();
    expect(document.activeElement).toBe(document.body); // nothing to press while it works
  });

  it('rewords the failure and its texts, and forwards its ref and props to the page element', async () => {
    const ref = createRef<HTMLDivElement>();
    renderSignedIn(
      keyRefused,
      <SignOut
        ref={ref}
        data-testid="page"
        labels={{ tryAgain: 'Réessayer' }}
        messages={{ INVALID_PUBLISHABLE_CLIENT_KEY: 'Clé refusée.' }}
      />,
    );
    await act(async () => {});
    expect(ref.current).toBe(screen.getByTestId('page'));
    expect(screen.getByRole('alert').textContent).toBe('Clé refusée.');
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
