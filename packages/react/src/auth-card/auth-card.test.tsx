import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { answeringApp } from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { AuthCard } from './auth-card.js';

afterEach(cleanup);

describe('AuthCard', () => {
  it('is a themed page with a card region named by its title', () => {
    const { app } = answeringApp();
    render(
      <LatchkeyProvider app={app} theme="dark">
        <AuthCard title="Check your inbox" subtitle="We sent you a link." footer={<a href="/">Back</a>}>
          <p>Body</p>
        </AuthCard>
      </LatchkeyProvider>,
    );
    const region = screen.getByRole('region', { name: 'Check your inbox' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Check your inbox');
    expect(region.textContent).toContain('We sent you a link.');
    expect(region.querySelector('footer')?.textContent).toBe('Back');
    expect(region.closest('.lk-root')?.getAttribute('data-lk-theme')).toBe('dark');
    expect(region.querySelector('.lk-card-icon svg')).toBeTruthy();
  });

  it('forwards its ref and other props to the page element; icon={null} draws none', () => {
    const ref = createRef<HTMLDivElement>();
    render(<AuthCard ref={ref} title="Hi" icon={null} className="mine" data-testid="page" aria-live="polite" />);
    const page = screen.getByTestId('page');
    expect(ref.current).toBe(page);
    expect(page.className).toBe('lk-root lk-page mine');
    expect(page.getAttribute('data-lk-theme')).toBe('system'); // outside a provider
    expect(page.getAttribute('aria-live')).toBe('polite');
    expect(page.querySelector('.lk-card-icon')).toBeNull();
  });

  it('has no axe violations, and its content is reached with Tab in reading order', async () => {
    render(
      <AuthCard title="Page not found" subtitle="Nothing here." footer={<a href="/help">Help</a>}>
        <a href="/">Home</a>
      </AuthCard>,
    );
    expect(await axeViolations()).toEqual([]);
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Home' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Help' }));
  });
});
