import { cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { answeringApp } from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { EmailInput } from './email-input.js';
import { Field } from './field.js';

afterEach(cleanup);

describe('EmailInput', () => {
  it('is an e-mail input with the e-mail keyboard and autocomplete, no capitals or spell check, axe-clean', async () => {
    render(
      <main>
        <LatchkeyProvider app={answeringApp().app}>
          <Field label="E-mail">{(control) => <EmailInput {...control} />}</Field>
        </LatchkeyProvider>
      </main>,
    );
    const input = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(input.type).toBe('email');
    expect(input.name).toBe('email');
    expect(input.getAttribute('autocomplete')).toBe('email');
    expect(input.getAttribute('inputmode')).toBe('email');
    expect(input.getAttribute('autocapitalize')).toBe('none');
    expect(input.getAttribute('spellcheck')).toBe('false');
    expect(input.placeholder).not.toBe('');
    expect(await axeViolations()).toEqual([]);
  });

  it('takes other props and the ref, keeping its class and type', () => {
    const ref = createRef<HTMLInputElement>();
    render(
      <LatchkeyProvider app={answeringApp().app}>
        <EmailInput ref={ref} required placeholder="you@work" className="mine" aria-label="Work e-mail" />
      </LatchkeyProvider>,
    );
    const input = screen.getByLabelText('Work e-mail') as HTMLInputElement;
    expect(ref.current).toBe(input);
    expect(input.required).toBe(true);
    expect(input.placeholder).toBe('you@work');
    expect(input.className).toBe('lk-input mine');
  });
});
