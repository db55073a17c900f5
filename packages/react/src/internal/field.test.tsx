import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../test-support/axe.js';
import { Field } from './field.js';

afterEach(cleanup);

const described = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby')?.split(' ') ?? []).map((id) => document.getElementById(id)?.textContent);

describe('Field', () => {
  it('labels its control and leaves it undescribed and valid when there is nothing to say', () => {
    render(<Field label="Code">{(control) => <input {...control} />}</Field>);
    const input = screen.getByLabelText('Code');
    expect(input.id).not.toBe('');
    expect(input.getAttribute('aria-describedby')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('describes the control with its error first, then its hint and outside ids; an error marks it invalid', async () => {
    render(
      <main>
        <p id="more">Six digits.</p>
        <Field id="code" label="Code" hint="From your app." error="Wrong code." describedBy="more">
          {(control) => <input {...control} />}
        </Field>
      </main>,
    );
    const input = screen.getByLabelText('Code');
    expect(input.id).toBe('code');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(described(input)).toEqual(['Wrong code.', 'From your app.', 'Six digits.']);
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no empty notes', () => {
    const { container } = render(
      <Field label="Code" hint="" error={null}>
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(container.querySelectorAll('p')).toHaveLength(0);
  });
});
