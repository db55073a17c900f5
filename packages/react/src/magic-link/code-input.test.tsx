import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-support/axe.js';
import { CodeInput } from './code-input.js';
import { normalizeCode } from './normalize-code.js';

afterEach(cleanup);

function Controlled() {
  const [code, setCode] = useState('');
  return (
    <>
      <CodeInput aria-label="Code" value={code} onValueChange={setCode} />
      <output>{code}</output>
    </>
  );
}

describe('normalizeCode', () => {
  it('reads a code however it was typed: any case, spaces, dashes, look-alike letters', () => {
    expect(normalizeCode('abc123')).toBe('ABC123');
    expect(normalizeCode(' ab-c 12 3 ')).toBe('ABC123');
    expect(normalizeCode('o1il0u')).toBe('01110');
    expect(normalizeCode('ABCDEFGH')).toBe('ABCDEF');
    expect(normalizeCode('ABCDEFGH', 8)).toBe('ABCDEFGH');
  });
});

describe('CodeInput', () => {
  it('is labelled, axe-clean, and takes the code from the keyboard in lower case', async () => {
    const complete = vi.fn();
    render(
      <main>
        <label htmlFor="code">Code</label>
        <CodeInput id="code" onComplete={complete} />
      </main>,
    );
    expect(await axeViolations()).toEqual([]);
    const keys = userEvent.setup();
    await keys.tab();
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    await keys.keyboard('k7m-2');
    expect(input.value).toBe('K7M2');
    expect(complete).not.toHaveBeenCalled();
    await keys.keyboard('xqz');
    expect(input.value).toBe('K7M2XQ');
    expect(complete).toHaveBeenCalledTimes(1);
    expect(complete).toHaveBeenCalledWith('K7M2XQ');
  });

  it('fills from a pasted code, and works controlled', async () => {
    render(<Controlled />);
    const keys = userEvent.setup();
    await keys.click(screen.getByLabelText('Code'));
    await keys.paste(' q9z-4hw ');
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('Q9Z4HW');
    expect(screen.getByRole('status').textContent).toBe('Q9Z4HW');
  });

  it('forwards its ref and other props to the input', () => {
    const ref = createRef<HTMLInputElement>();
    render(<CodeInput ref={ref} aria-label="Code" className="mine" data-testid="code" defaultValue="ab" />);
    expect(ref.current).toBe(screen.getByTestId('code'));
    expect(ref.current?.className).toBe('lk-input lk-code-input mine');
    fireEvent.change(ref.current!, { target: { value: 'abc' } });
    expect(ref.current?.value).toBe('ABC');
  });
});
