// @vitest-environment node
import '../test-support/dom-in-node.js';
import { KnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answer,
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { SignIn, SignUp } from './credential-pages.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/sign-in'));

function renderPage(
  page: 'sign-in' | 'sign-up',
  props: Parameters<typeof SignIn>[0] = {},
  projectName?: string,
  serviceProjectName: string | null = 'Demo project',
) {
  /** Answers for the next credential requests, in order; then the service accepts them. */
  const next: Answer[] = [];
  const { app, requests } = answeringApp(serviceWith(serviceProjectName, next));
  const Page = page === 'sign-in' ? SignIn : SignUp;
  render(
    <LatchkeyProvider app={app} projectName={projectName}>
      <Page {...props} />
    </LatchkeyProvider>,
  );
  const path = page === 'sign-in' ? '/auth/password/sign-in' : '/auth/password/sign-up';
  /** The e-mail and password of each credential request sent. */
  const sent = () =>
    requests
      .filter((request) => request.path === path)
      .map((request) => {
        const { email, password } = request.body as { email: string; password: string };
        return { email, password };
      });
  return { next, sent };
}

/** The service as the credential pages meet it (`projectName` `null`: the project is not found). */
function serviceWith(projectName: string | null, next: Answer[] = []): Answer {
  return (request) => {
    if (request.path === '/projects/current') {
      if (projectName !== null) return jsonAnswer({ ...recordedAnswers.project, display_name: projectName });
      return knownErrorAnswer(new KnownError('PROJECT_NOT_FOUND', { project_id: 'project-answers' }));
    }
    if (request.path.startsWith('/auth/password/')) {
      const answer = next.shift();
      return answer ? answer(request) : jsonAnswer(recordedAnswers.signUp);
    }
    return undefined;
  };
}

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

const submitButton = (name: RegExp) => screen.getByRole('button', { name });

describe('SignIn', () => {
  it('titles the card with the project name: given, else from the service, else generic', async () => {
    renderPage('sign-in', {}, 'Acme');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to Acme' })).toBeTruthy();
    cleanup();
    renderPage('sign-in', {}, undefined, 'Demo project');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Demo project' })).toBeTruthy();
    cleanup();
    renderPage('sign-in', {}, undefined, null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeTruthy();
  });

  it('labels its fields and names the region after the title', () => {
    renderPage('sign-in', {}, 'Acme');
    expect(screen.getByLabelText('E-mail').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole('region', { name: 'Sign in to Acme' })).toBeTruthy();
  });

  it('shows required-field messages tied to the fields and does not call the SDK', () => {
    const { sent } = renderPage('sign-in');
    fireEvent.click(submitButton(/sign in/i));
    const email = screen.getByLabelText('E-mail');
    const password = screen.getByLabelText('Password');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(email)).toBe('Enter your e-mail address.');
    expect(describedText(password)).toBe('Enter your password.');
    expect(document.activeElement).toBe(email);
    expect(sent()).toEqual([]);
  });

  it('checks the e-mail shape and clears a field error once the field changes', () => {
    renderPage('sign-in');
    fill('not-an-email', 'secret-password');
    fireEvent.click(submitButton(/sign in/i));
    const email = screen.getByLabelText('E-mail');
    expect(describedText(email)).toBe('Enter a valid e-mail address, like name@example.com.');
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    expect(email.getAttribute('aria-invalid')).toBeNull();
  });

  it('calls signInWithCredential with the trimmed e-mail and the password; short passwords are left to the service', async () => {
    const { sent } = renderPage('sign-in');
    fill('  ada@example.com ', 'short');
    fireEvent.click(submitButton(/sign in/i));
    await act(async () => {});
    expect(sent()).toEqual([{ email: 'ada@example.com', password: 'short' }]);
  });

  it('disables the button and marks it busy while the service answers, then shows its error', async () => {
    const { next, sent } = renderPage('sign-in');
    const answer = heldAnswer();
    next.push(() => answer.promise);
    fill('ada@example.com', 'wrong-password');
    fireEvent.click(submitButton(/sign in/i));

    const busy = screen.getByRole('button', { name: 'Signing in…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(busy);
    await act(async () => {});
    expect(sent()).toHaveLength(1);

    await act(async () => answer.release(knownErrorAnswer('EMAIL_PASSWORD_MISMATCH')));
    expect(screen.getByRole('alert').textContent).toBe('Wrong e-mail or password.');
    const idle = submitButton(/^sign in$/i) as HTMLButtonElement;
    expect(idle.disabled).toBe(false);
    expect(idle.getAttribute('aria-busy')).toBe('false');
    const form = idle.closest('form')!;
    expect(document.getElementById(form.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Wrong e-mail or password.',
    );
  });

  it('announces a refusal in the one role=alert region and brings focus back to the first field', async () => {
    const { next } = renderPage('sign-in');
    next.push(() => knownErrorAnswer('EMAIL_PASSWORD_MISMATCH'));
    fill('ada@example.com', 'wrong-password');
    fireEvent.click(submitButton(/sign in/i));
    await screen.findByText('Wrong e-mail or password.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: '' } });
    fireEvent.click(submitButton(/sign in/i));
    expect(screen.getAllByRole('alert')).toHaveLength(1); // field errors are tied to their fields, not alerts
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('rewords server errors with the messages prop', async () => {
    const { next } = renderPage('sign-in', { messages: { EMAIL_PASSWORD_MISMATCH: 'Nope, try again.' } });
    next.push(() => knownErrorAnswer('EMAIL_PASSWORD_MISMATCH'));
    fill('ada@example.com', 'wrong-password');
    fireEvent.click(submitButton(/sign in/i));
    expect((await screen.findByText('Nope, try again.')).closest('[role="alert"]')).toBeTruthy();
  });

  it('stays busy after success while the SDK redirects', async () => {
    const { sent } = renderPage('sign-in');
    fill('ada@example.com', 'right-password');
    fireEvent.click(submitButton(/sign in/i));
    await act(async () => {});
    expect(sent()).toHaveLength(1);
    expect((screen.getByRole('button', { name: 'Signing in…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('passes noRedirect, calls onSuccess and becomes usable again', async () => {
    const successes: string[] = [];
    const { sent } = renderPage('sign-in', { noRedirect: true, onSuccess: ({ email }) => successes.push(email) });
    fill('ada@example.com', 'right-password');
    fireEvent.click(submitButton(/sign in/i));
    await act(async () => {});
    expect(sent()).toEqual([{ email: 'ada@example.com', password: 'right-password' }]);
    expect(successes).toEqual(['ada@example.com']);
    expect((submitButton(/^sign in$/i) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a non-catalogue failure by its message', async () => {
    const { next } = renderPage('sign-in');
    next.push(() => undefined); // the network is down
    fill('ada@example.com', 'right-password');
    fireEvent.click(submitButton(/sign in/i));
    const said = 'Could not reach the Latchkey service at https://auth.example.com/api/v1/auth/password/sign-in.';
    expect((await screen.findByText(said)).closest('[role="alert"]')).toBeTruthy();
  });

  it('links to sign-up, keeping after_auth_return_to', () => {
    visit('/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2');
    renderPage('sign-in');
    const link = screen.getByRole('link', { name: 'Create an account' });
    expect(link.getAttribute('href')).toBe('/handler/sign-up?after_auth_return_to=%2Fprotected%3Ftab%3D2');
  });

  it('drops an after_auth_return_to that leaves the origin from the sign-up link', () => {
    visit('/handler/sign-in?after_auth_return_to=%2F%5Cevil.com');
    renderPage('sign-in');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/handler/sign-up');
  });

  it('shows and hides the password', () => {
    renderPage('sign-in');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });
});

describe('SignUp', () => {
  it('titles the card and links to sign-in keeping after_auth_return_to', () => {
    visit('/handler/sign-up?after_auth_return_to=%2Fprotected');
    renderPage('sign-up', {}, 'Acme');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign up for Acme' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/handler/sign-in?after_auth_return_to=%2Fprotected',
    );
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('new-password');
  });

  it('checks the password length with the service limits, in the catalogue wording', () => {
    const { sent } = renderPage('sign-up');
    fill('ada@example.com', 'seven77');
    fireEvent.click(submitButton(/create account/i));
    const password = screen.getByLabelText('Password');
    expect(describedText(password)).toContain('The password must be at least 8 characters long.');
    expect(describedText(password)).toContain('At least 8 characters.');
    expect(document.activeElement).toBe(password);

    fill('ada@example.com', 'x'.repeat(71));
    fireEvent.click(submitButton(/create account/i));
    expect(describedText(password)).toContain('The password must be at most 70 characters long.');
    expect(sent()).toEqual([]);
  });

  it('calls signUpWithCredential and shows USER_EMAIL_ALREADY_EXISTS', async () => {
    const { next, sent } = renderPage('sign-up');
    next.push(() => knownErrorAnswer('USER_EMAIL_ALREADY_EXISTS'));
    fill('ada@example.com', 'long-enough');
    fireEvent.click(submitButton(/create account/i));
    expect(screen.getByRole('button', { name: 'Creating account…' }).getAttribute('aria-busy')).toBe('true');
    expect((await screen.findByText('User email already exists.')).closest('[role="alert"]')).toBeTruthy();
    expect(sent()).toEqual([{ email: 'ada@example.com', password: 'long-enough' }]);
  });

  it('shows SIGN_UP_NOT_ENABLED as a form error', async () => {
    const { next } = renderPage('sign-up');
    next.push(() => knownErrorAnswer('SIGN_UP_NOT_ENABLED'));
    fill('ada@example.com', 'long-enough');
    fireEvent.click(submitButton(/create account/i));
    expect(
      (await screen.findByText('Sign-up is not enabled for this project.')).closest('[role="alert"]'),
    ).toBeTruthy();
  });

  it('puts the service password rules under the password field, with their details', async () => {
    const { next } = renderPage('sign-up', { messages: { PASSWORD_TOO_SHORT: tooShortInGerman } });
    next.push(() => knownErrorAnswer(new KnownError('PASSWORD_TOO_SHORT', { min_length: 12 })));
    fill('ada@example.com', 'long-enough');
    fireEvent.click(submitButton(/create account/i));
    await screen.findByText('Mindestens 12 Zeichen.');
    expect(describedText(screen.getByLabelText('Password'))).toContain('Mindestens 12 Zeichen.');
    expect(screen.getByRole('alert').textContent).toBe('');
  });
});

function tooShortInGerman(details: { min_length: number }) {
  return `Mindestens ${details.min_length} Zeichen.`;
}

/** The text of the elements an element's aria-describedby points at. */
function describedText(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe.each(['sign-in', 'sign-up'] as const)('the %s page, accessibility and keyboard', (page) => {
  it('has no axe violations, blank and with every error shown', async () => {
    renderPage(page, {}, 'Acme');
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: page === 'sign-in' ? 'Sign in' : 'Create account' }));
    expect(await axeViolations()).toEqual([]);
  });

  it('is used with the keyboard alone: Tab through the fields and the toggle, Enter submits', async () => {
    const { sent } = renderPage(page, {}, 'Acme');
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    await user.keyboard('ada@example.com');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    await user.keyboard('long-enough');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show password' }));
    await user.keyboard(' ');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    await user.click(screen.getByLabelText('Password'));
    await user.keyboard('{Enter}');
    await act(async () => {});
    expect(sent()).toEqual([{ email: 'ada@example.com', password: 'long-enough' }]);
  });
});

describe('credential pages, words and props', () => {
  it('take their interface text from labels: the provider, then the page', () => {
    visit('/handler/sign-in');
    const { app } = answeringApp(serviceWith('Demo project'));
    render(
      <LatchkeyProvider app={app} projectName="Acme" labels={{ emailLabel: 'Courriel', signInSubmit: 'Entrer' }}>
        <SignIn
          labels={{
            signInSubmit: 'Continuer',
            signInTitleWithProject: ({ projectName }) => `Bienvenue sur ${projectName}`,
          }}
        />
      </LatchkeyProvider>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Bienvenue sur Acme');
    expect(screen.getByLabelText('Courriel')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continuer' })).toBeTruthy();
  });

  it('take a whole translation as one object, spread onto the page', () => {
    const french = {
      labels: { passwordLabel: 'Mot de passe', signUpLink: 'Créer un compte' },
      messages: { EMAIL_REQUIRED: 'Votre e-mail, s’il vous plaît.' },
    };
    renderPage('sign-in', french);
    expect(screen.getByRole('link', { name: 'Créer un compte' })).toBeTruthy();
    fireEvent.click(submitButton(/sign in/i));
    expect(describedText(screen.getByLabelText('E-mail'))).toBe('Votre e-mail, s’il vous plaît.');
    expect(screen.getByLabelText('Mot de passe')).toBeTruthy();
  });

  it('forward the ref and other props to the page element', () => {
    const { app } = answeringApp(serviceWith('Demo project'));
    const ref = createRef<HTMLDivElement>();
    render(
      <LatchkeyProvider app={app} theme="dark">
        <SignUp ref={ref} className="mine" data-testid="page" id="signup" />
      </LatchkeyProvider>,
    );
    const page = screen.getByTestId('page');
    expect(ref.current).toBe(page);
    expect(page.id).toBe('signup');
    expect(page.className).toBe('lk-root lk-page mine');
    expect(page.getAttribute('data-lk-theme')).toBe('dark');
  });
});

describe('credential pages on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  function renderReal(page: 'sign-in' | 'sign-up') {
    const real = realApp(service);
    const Page = page === 'sign-in' ? SignIn : SignUp;
    render(
      <LatchkeyProvider app={real.app}>
        <Page />
      </LatchkeyProvider>,
    );
    return real;
  }

  it('names the project as the service does, without holding the page back', async () => {
    renderReal('sign-in');
    expect(screen.getByLabelText('E-mail')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Test project' })).toBeTruthy();
  });

  it('signs up by keyboard, signs the new user in and goes to the after-sign-up page', async () => {
    visit('/handler/sign-up?after_auth_return_to=%2Fwelcome');
    const { app, navigations } = renderReal('sign-up');
    const email = uniqueEmail('keys');
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard(email);
    await user.tab();
    await user.keyboard('correct-horse-battery{Enter}');
    await waitFor(() => expect(navigations).toEqual(['/welcome']), { timeout: 10_000 });
    expect(screen.getByRole('button', { name: 'Creating account…' })).toBeTruthy();
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it("shows the service's refusals: a taken e-mail, then a wrong password", async () => {
    const email = uniqueEmail('taken');
    await realApp(service).app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true });
    renderReal('sign-up');
    fill(email, 'another-password');
    fireEvent.click(submitButton(/create account/i));
    expect(await screen.findByText('User email already exists.', {}, { timeout: 10_000 })).toBeTruthy();
    cleanup();
    const { navigations } = renderReal('sign-in');
    fill(email, 'not-the-password');
    fireEvent.click(submitButton(/sign in/i));
    expect(await screen.findByText('Wrong e-mail or password.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    expect(navigations).toEqual([]);
  });

  it('says so when the project does not take sign-ups', async () => {
    await service.setProjectConfig({ sign_up_enabled: false });
    try {
      renderReal('sign-up');
      fill(uniqueEmail(), 'correct-horse-battery');
      fireEvent.click(submitButton(/create account/i));
      expect(await screen.findByText('Sign-up is not enabled for this project.', {}, { timeout: 10_000 })).toBeTruthy();
    } finally {
      await service.setProjectConfig({ sign_up_enabled: true });
    }
  });
});
