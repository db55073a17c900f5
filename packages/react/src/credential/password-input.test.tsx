import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
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
});
