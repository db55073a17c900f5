import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Icon, type IconName } from './icon.js';

afterEach(cleanup);

const names: IconName[] = ['lock', 'compass', 'door', 'alert', 'chevron-down', 'sign-out'];

describe('Icon', () => {
  it.each(names)('draws %s as a decorative, unfocusable square in currentColor', (name) => {
    const { container } = render(<Icon name={name} size={16} className="x" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('focusable')).toBe('false');
    expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual(['16', '16']);
    expect(svg.getAttribute('stroke')).toBe('currentColor');
    expect(svg.getAttribute('class')).toBe('x');
    expect(svg.children.length).toBeGreaterThan(0);
  });
});
