// @vitest-environment node
/**
 * The package's components rendered as a server renders them (React Server
 * Components' SSR pass, Next's first HTML): `react-dom/server` in plain Node,
 * no `window` or `document`, every Suspense boundary resolved from the app's
 * answers (`allReady`). What a server component imports straight from
 * `@latchkey/react` must render here without errors, signed out and signed in.
 */
import type { ClientApp } from '@latchkey/js';
import type { ReactNode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  AccountSettings,
  AuthCard,
  BusyButton,
  CodeInput,
  CredentialForm,
  EmailField,
  englishLabels,
  FormAlert,
  Handler,
  LatchkeyProvider,
  normalizeCode,
  OAuthButtons,
  PasswordField,
  PasswordInput,
  ProviderMark,
  SelectedTeamSwitcher,
  SignIn,
  SignOut,
  SignUp,
  Spinner,
  SubmitButton,
  UserButton,
} from './index.js';
import { answeringApp, jsonAnswer, projectAnswer, type SentRequest, userAnswer } from './test-support/answering-app.js';

/** The service as a server render meets it: the project, the user, and empty lists; anything else is recorded. */
function serverApp(signedIn: boolean) {
  const unanswered: string[] = [];
  const answering = answeringApp(
    ({ method, path }: SentRequest) => {
      if (path === '/projects/current') return jsonAnswer(projectAnswer('Acme'));
      if (path === '/users/me') return jsonAnswer(userAnswer());
      if (method === 'GET' && /^\/(teams|passkeys|connected-accounts|contact-channels)\b/.test(path)) {
        return jsonAnswer({ items: [], is_paginated: false });
      }
      unanswered.push(`${method} ${path}`);
      return jsonAnswer({});
    },
    { signedIn },
  );
  return { app: answering.app, unanswered };
}

/** The HTML a server sends for `node` inside a provider of `app`, once everything it waits for has arrived. */
async function serverHtml(app: ClientApp, node: ReactNode): Promise<string> {
  const errors: unknown[] = [];
  const stream = await renderToReadableStream(
    <LatchkeyProvider app={app} projectName="Acme">
      {node}
    </LatchkeyProvider>,
    { onError: (error) => void errors.push(error) },
  );
  await stream.allReady;
  const html = await new Response(stream).text();
  expect(errors).toEqual([]);
  return html;
}

const handlerPages = [
  'sign-in',
  'sign-up',
  'sign-out',
  'forgot-password',
  'password-reset',
  'email-verification',
  'magic-link-callback',
  'oauth-callback',
  'error',
  'account-settings',
  'team-invitation',
];

describe('@latchkey/react on a server (no window, no document)', () => {
  it('runs where there is no DOM', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it.each([false, true])('renders every handler page (signed in: %s)', async (signedIn) => {
    const { app, unanswered } = serverApp(signedIn);
    for (const page of handlerPages) {
      const html = await serverHtml(app, <Handler pathname={`/handler/${page}`} />);
      expect(html, page).toMatch(/<h1[ >]/);
      expect(html, page).not.toContain(englishLabels.notFoundTitle);
    }
    expect(unanswered).toEqual([]);
  });

  it('renders the pages and parts a server component imports, signed out', async () => {
    const { app, unanswered } = serverApp(false);
    expect(await serverHtml(app, <SignIn />)).toContain('Sign in to Acme');
    expect(await serverHtml(app, <SignUp />)).toContain('Sign up for Acme');
    const parts = await serverHtml(
      app,
      <AuthCard title="Parts" footer={<Spinner />}>
        <CredentialForm kind="sign-in">
          <EmailField />
          <PasswordField />
          <SubmitButton>Go</SubmitButton>
        </CredentialForm>
        <PasswordInput name="secret" />
        <CodeInput />
        <OAuthButtons providers={[{ id: 'github' }]} />
        <ProviderMark id="google" />
        <FormAlert message="Heads up" />
        <BusyButton busy>Wait</BusyButton>
        <SignOut />
      </AuthCard>,
    );
    expect(parts).toContain('Parts');
    expect(parts).toContain('Heads up');
    expect(parts).toContain('name="secret"');
    expect(unanswered).toEqual([]);
  });

  it('renders what a signed-in user sees: the user button, account settings, the team switcher', async () => {
    const { app, unanswered } = serverApp(true);
    const name = userAnswer().display_name!;
    expect(await serverHtml(app, <UserButton />)).toContain(`aria-label="${englishLabels.accountMenuFor({ name })}"`);
    expect(await serverHtml(app, <AccountSettings />)).toContain(englishLabels.accountSettingsTitle);
    const switcher = await serverHtml(app, <SelectedTeamSwitcher />);
    expect(switcher).toContain('aria-haspopup="dialog"');
    expect(switcher).toContain(`>${englishLabels.teamSwitcherLabel}</span>`);
    expect(switcher).toContain(`>${englishLabels.teamSwitcherNone}</span>`);
    expect(unanswered).toEqual([]);
  });

  it('keeps its plain helpers usable by server code (no client boundary around them)', () => {
    expect(normalizeCode(' ab-c1o2 ')).toBe('ABC102');
  });
});
