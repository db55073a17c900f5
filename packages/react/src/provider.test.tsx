import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SignIn } from './credential/credential-pages.js';
import { LatchkeyProvider } from './provider.js';
import { createFakeApp, visit } from './test-support/fake-app.js';

afterEach(cleanup);

describe('LatchkeyProvider', () => {
  it('themes the components below it (system by default) and names the project', () => {
    visit('/handler/sign-in');
    const fake = createFakeApp();
    const { rerender } = render(
      <LatchkeyProvider app={fake.app} projectName="Acme">
        <SignIn />
      </LatchkeyProvider>,
    );
    const root = () => screen.getByRole('heading', { level: 1 }).closest('.lk-root');
    expect(root()?.getAttribute('data-lk-theme')).toBe('system');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to Acme');
    rerender(
      <LatchkeyProvider app={fake.app} projectName="Acme" theme="light">
        <SignIn />
      </LatchkeyProvider>,
    );
    expect(root()?.getAttribute('data-lk-theme')).toBe('light');
  });
});
