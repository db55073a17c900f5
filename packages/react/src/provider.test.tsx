import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignIn } from './credential/credential-pages.js';
import { PasswordInput } from './credential/password-input.js';
import { LatchkeyProvider } from './provider.js';
import { answeringApp, jsonAnswer, projectAnswer } from './test-support/answering-app.js';
import { visit } from './test-support/page.js';

/** The real `ClientApp`, signed out, its project answered from a recording. */
const createApp = () => answeringApp({ 'GET /projects/current': () => jsonAnswer(projectAnswer()) });

afterEach(cleanup);

describe('LatchkeyProvider', () => {
  it('themes the components below it (system by default) and names the project', () => {
    visit('/handler/sign-in');
    const page = createApp();
    const { rerender } = render(
      <LatchkeyProvider app={page.app} projectName="Acme">
        <SignIn />
      </LatchkeyProvider>,
    );
    const root = () => screen.getByRole('heading', { level: 1 }).closest('.lk-root');
    expect(root()?.getAttribute('data-lk-theme')).toBe('system');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to Acme');
    rerender(
      <LatchkeyProvider app={page.app} projectName="Acme" theme="light">
        <SignIn />
      </LatchkeyProvider>,
    );
    expect(root()?.getAttribute('data-lk-theme')).toBe('light');
  });

  it('words every component below it from its labels and messages; a nested provider or a page words over them', () => {
    visit('/handler/sign-in');
    const page = createApp();
    render(
      <LatchkeyProvider
        app={page.app}
        projectName="Acme"
        labels={{ signInSubmit: 'Entrer', passwordLabel: 'Mot de passe' }}
        messages={{ EMAIL_REQUIRED: 'Courriel requis.' }}
      >
        <SignIn />
        <LatchkeyProvider app={page.app} labels={{ showPassword: 'Voir' }}>
          <PasswordInput aria-label="Code" />
        </LatchkeyProvider>
      </LatchkeyProvider>,
    );
    expect(screen.getByRole('button', { name: 'Entrer' })).toBeTruthy();
    expect(screen.getByLabelText('Mot de passe')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Voir' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Entrer' }));
    expect(screen.getByText('Courriel requis.')).toBeTruthy();
  });

  it('leaves components outside any provider in English', () => {
    render(<PasswordInput aria-label="Code" />);
    expect(screen.getByRole('button', { name: 'Show password' }).textContent).toBe('Show');
  });
});
