import { describe, expect, it } from 'vitest';
import { memoryTokenStore } from './stored-tokens.js';
import { createTokenStore } from './token-store.js';

describe('token stores', () => {
  it('memory: starts empty and keeps what is written', () => {
    const store = createTokenStore('memory', 'p');
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
    store.write({ accessToken: 'a', refreshToken: 'r' });
    expect(store.read()).toEqual({ accessToken: 'a', refreshToken: 'r' });
  });

  it('custom object: read once, later changes to the object are not seen', () => {
    const given = { accessToken: 'a', refreshToken: 'r' };
    const store = createTokenStore(given, 'p');
    given.refreshToken = 'changed';
    expect(store.read()).toEqual({ accessToken: 'a', refreshToken: 'r' });
  });

  it('custom object: missing fields are absent', () => {
    expect(createTokenStore({ refreshToken: 'r' }, 'p').read()).toEqual({ accessToken: null, refreshToken: 'r' });
  });

  it('cookie: outside a browser (server-side rendering) starts signed out in memory', () => {
    const store = createTokenStore('cookie', 'p');
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
  });

  it('memory: subscribe is a no-op', () => {
    const unsubscribe = memoryTokenStore().subscribe(() => {});
    expect(unsubscribe).toBeTypeOf('function');
  });
});
