import { describe, expect, it } from 'vitest';
import { visit } from '../test-support/fake-app.js';
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
});
