import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { answeringApp } from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { PasswordInput } from './password-input.js';

afterEach(cleanup);

const seen: boolean[] = [];

function Controlled() {
  const [visible, setVisible] = useState(false);
  return (
    <>
      <PasswordInput
        aria-label="Password"
        visible={visible}
        onVisibleChange={(next) => {
          seen.push(next);
          setVisible(next);
        }}
        toggleLabels={{ show: 'Show secret', hide: 'Hide secret' }}
      />
      <button type="button" onClick={() => setVisible(false)}>
        reset
      </button>
    </>
  );
}

describe('PasswordInput', () => {
  it('toggles visibility on its own (uncontrolled) and names the toggle by what it does', () => {
    render(<PasswordInput aria-label="Password" id="pw" defaultVisible />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('text');
    const toggle = screen.getByRole('button', { name: 'Hide password' });
    expect(toggle.getAttribute('aria-controls')).toBe('pw');
    fireEvent.click(toggle);
    expect(input.getAttribute('type')).toBe('password');
  });

  it('follows the visible prop when controlled', () => {
    seen.length = 0;
    render(<Controlled />);
    fireEvent.click(screen.getByRole('button', { name: 'Show secret' }));
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'reset' }));
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(seen).toEqual([true]);
  });

  it('toggles from the keyboard: Tab reaches the toggle after the input, Enter and Space flip it', async () => {
    render(
      <main>
        <label htmlFor="pw">Password</label>
        <PasswordInput id="pw" />
      </main>,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    await user.keyboard('secret');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show password' }));
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Hide password' }));
    await user.keyboard(' ');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('secret');
  });

  it('has no axe violations, hidden or shown', async () => {
    render(
      <main>
        <label htmlFor="pw">Password</label>
        <PasswordInput id="pw" />
      </main>,
    );
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await axeViolations()).toEqual([]);
  });

  it('names its toggle from the labels, ties it to a generated id, and forwards ref and props to the input', () => {
    const ref = createRef<HTMLInputElement>();
    render(
      <LatchkeyProvider
        app={answeringApp().app}
        labels={{ showPassword: 'Afficher le mot de passe', showPasswordShort: 'Afficher' }}
      >
        <PasswordInput
          ref={ref}
          aria-label="Mot de passe"
          className="mine"
          data-testid="pw"
          autoComplete="new-password"
        />
      </LatchkeyProvider>,
    );
    const input = screen.getByTestId('pw');
    expect(ref.current).toBe(input);
    expect(input.className).toBe('lk-input lk-password-input mine');
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    const toggle = screen.getByRole('button', { name: 'Afficher le mot de passe' });
    expect(toggle.textContent).toBe('Afficher');
    expect(toggle.getAttribute('aria-controls')).toBe(input.id);
    expect(input.id).not.toBe('');
  });
});
