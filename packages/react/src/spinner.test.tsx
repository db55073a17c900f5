import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Spinner } from './spinner.js';
import { axeViolations } from './test-support/axe.js';

afterEach(cleanup);

describe('Spinner', () => {
  it('is decorative, beside the text that says what is happening', async () => {
    render(
      <p role="status">
        <Spinner /> Loading…
      </p>,
    );
    const ring = screen.getByRole('status').querySelector('.lk-spinner');
    expect(ring?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('status').textContent?.trim()).toBe('Loading…');
    expect(await axeViolations()).toEqual([]);
  });

  it('takes no keyboard focus', async () => {
    render(<Spinner />);
    await userEvent.setup().tab();
    expect(document.activeElement).toBe(document.body);
  });

  it('forwards its ref and other props', () => {
    const ref = createRef<HTMLSpanElement>();
    render(<Spinner ref={ref} className="big" data-testid="spin" style={{ color: 'red' }} />);
    const ring = screen.getByTestId('spin');
    expect(ref.current).toBe(ring);
    expect(ring.className).toBe('lk-spinner big');
    expect(ring.style.color).toBe('red');
  });
});
