import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { type Answer, answeringApp, heldAnswer } from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { CredentialForm, EmailField, FormError, PasswordField, SubmitButton } from './credential-form.js';

afterEach(cleanup);

function renderForm(ui: React.ReactNode, answer?: Answer) {
  const answering = answeringApp(answer);
  render(<LatchkeyProvider app={answering.app}>{ui}</LatchkeyProvider>);
  return answering;
}

const heard: string[] = [];

function ControlledEmail() {
  const [email, setEmail] = useState('grace@example.com');
  return (
    <>
      <CredentialForm kind="sign-in" email={email} onEmailChange={setEmail}>
        <EmailField onChange={(event) => heard.push(event.target.value)} />
      </CredentialForm>
      <output>{email}</output>
    </>
  );
}

describe('CredentialForm and its parts', () => {
  it('compose in any order and markup, and render the default parts with no children', () => {
    renderForm(
      <CredentialForm kind="sign-in">
        <SubmitButton>Go</SubmitButton>
        <fieldset>
          <legend>Who</legend>
          <PasswordField label="Secret" />
          <EmailField label="Mail" />
        </fieldset>
      </CredentialForm>,
    );
    const controls = screen.getAllByRole('textbox').concat(screen.getAllByLabelText('Secret'));
    expect(controls.map((control) => control.getAttribute('name'))).toEqual(['email', 'password']);
    expect(screen.getByRole('button', { name: 'Go' }).getAttribute('type')).toBe('submit');
    cleanup();
    renderForm(<CredentialForm kind="sign-up" />);
    expect(screen.getByLabelText('E-mail')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
  });

  it('forward each ref and the rest of the props to the main element', () => {
    const refs = {
      form: createRef<HTMLFormElement>(),
      error: createRef<HTMLDivElement>(),
      email: createRef<HTMLInputElement>(),
      password: createRef<HTMLInputElement>(),
      submit: createRef<HTMLButtonElement>(),
    };
    renderForm(
      <CredentialForm kind="sign-in" ref={refs.form} className="f" data-testid="form" aria-label="Sign in form">
        <FormError ref={refs.error} className="e" data-testid="error" />
        <EmailField ref={refs.email} className="i" data-testid="email" autoFocus />
        <PasswordField ref={refs.password} data-testid="password" maxLength={70} />
        <SubmitButton ref={refs.submit} className="b" data-testid="submit" title="Send" />
      </CredentialForm>,
    );
    expect(refs.form.current).toBe(screen.getByTestId('form'));
    expect(refs.form.current?.className).toBe('lk-form f');
    expect(screen.getByRole('form', { name: 'Sign in form' })).toBe(refs.form.current);
    expect(refs.error.current).toBe(screen.getByTestId('error'));
    expect(refs.error.current?.className).toBe('lk-alert-region e');
    expect(refs.email.current).toBe(screen.getByTestId('email'));
    expect(refs.email.current?.className).toBe('lk-input i');
    expect(document.activeElement).toBe(refs.email.current);
    expect(refs.password.current).toBe(screen.getByTestId('password'));
    expect(refs.password.current?.maxLength).toBe(70);
    expect(refs.submit.current).toBe(screen.getByTestId('submit'));
    expect(refs.submit.current?.title).toBe('Send');
  });

  it('focuses the forwarded input of the first field in error', () => {
    const password = createRef<HTMLInputElement>();
    renderForm(
      <CredentialForm kind="sign-in" defaultEmail="ada@example.com">
        <EmailField />
        <PasswordField ref={password} />
        <SubmitButton />
      </CredentialForm>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(document.activeElement).toBe(password.current);
    expect(password.current?.getAttribute('aria-invalid')).toBe('true');
  });

  it('works with a controlled e-mail, calling onChange of the field too', () => {
    heard.length = 0;
    renderForm(<ControlledEmail />);
    const email = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(email.value).toBe('grace@example.com');
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    expect(screen.getByRole('status').textContent).toBe('ada@example.com');
    expect(heard).toEqual(['ada@example.com']);
  });

  it('ties a hint and the caller’s own description to the input, after the error', () => {
    renderForm(
      <CredentialForm kind="sign-in">
        <p id="own">Use your work address.</p>
        <EmailField hint="We never share it." aria-describedby="own" />
        <SubmitButton />
      </CredentialForm>,
    );
    const email = screen.getByLabelText('E-mail');
    const ids = () => email.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(ids().map((id) => document.getElementById(id)?.textContent)).toEqual([
      'We never share it.',
      'Use your work address.',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(ids().map((id) => document.getElementById(id)?.textContent)).toEqual([
      'Enter your e-mail address.',
      'We never share it.',
      'Use your work address.',
    ]);
  });

  it('disables the submit button when asked, and while busy', async () => {
    const { requests } = renderForm(
      <CredentialForm kind="sign-in" defaultEmail="ada@example.com">
        <PasswordField />
        <SubmitButton disabled />
      </CredentialForm>,
    );
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {});
    expect(requests).toEqual([]);
  });

  it('refuses to render a part outside a CredentialForm', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<EmailField />)).toThrow('<EmailField> must be placed inside <CredentialForm>.');
    vi.mocked(console.error).mockRestore();
  });

  it('has no axe violations in a custom composition, errors shown, and submits with Enter from a field', async () => {
    // The service's answer is held: the form stays busy.
    const held = heldAnswer();
    const { requests } = renderForm(
      <main>
        <CredentialForm kind="sign-up">
          <FormError />
          <EmailField label="Work e-mail" />
          <PasswordField hint={null} />
          <SubmitButton />
        </CredentialForm>
      </main>,
      () => held.promise,
    );
    expect(await axeViolations()).toEqual([]);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Work e-mail'));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Work e-mail'));
    expect(screen.getByLabelText('Work e-mail').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations()).toEqual([]);
    await user.keyboard('ada@example.com');
    await user.tab();
    await user.keyboard('long-enough{Enter}');
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/auth/password/sign-up',
        body: {
          email: 'ada@example.com',
          password: 'long-enough',
          verification_callback_url: 'http://localhost:3000/handler/email-verification',
        },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Creating account…' })).toBeTruthy();
  });
});
