import { describe, expect, it } from 'vitest';
import { visit } from '../test-support/page.js';
import { currentReturnTo, withReturnTo } from './return-to.js';

describe('after_auth_return_to', () => {
  it('is read from the address and carried onto another link', () => {
    visit('/handler/sign-in?after_auth_return_to=%2Fprotected');
    expect(currentReturnTo()).toBe('/protected');
    expect(withReturnTo('/handler/sign-up?x=1', currentReturnTo())).toBe(
      '/handler/sign-up?x=1&after_auth_return_to=%2Fprotected',
    );
    expect(withReturnTo('https://other.example/in', '/p')).toBe('https://other.example/in?after_auth_return_to=%2Fp');
  });

  it('leaves links alone when there is nothing to carry', () => {
    visit('/handler/sign-in');
    expect(currentReturnTo()).toBeNull();
    expect(withReturnTo('/handler/sign-up', null)).toBe('/handler/sign-up');
  });

  it.each([
    ['https%3A%2F%2Fevil.com%2Fphish', 'another origin'],
    ['%2F%2Fevil.com', 'a protocol-relative URL'],
    ['%2F%5Cevil.com', 'a backslash that browsers read as a slash'],
    ['%5C%2Fevil.com', 'a leading backslash'],
    ['javascript%3Aalert(1)', 'a javascript: URL'],
    ['%20%09javascript%3Aalert(1)', 'whitespace before the scheme'],
    ['data%3Atext%2Fhtml%2Cx', 'a data: URL'],
  ])('drops after_auth_return_to=%s (%s)', (value) => {
    visit(`/handler/sign-in?after_auth_return_to=${value}`);
    expect(currentReturnTo()).toBeNull();
  });

  it('carries a same-origin absolute value as a path', () => {
    visit(`/handler/sign-in?after_auth_return_to=${encodeURIComponent(`${window.location.origin}/p?q=1#h`)}`);
    expect(currentReturnTo()).toBe('/p?q=1#h');
  });
});
