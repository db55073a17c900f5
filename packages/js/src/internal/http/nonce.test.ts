import { describe, expect, it } from 'vitest';
import { randomNonce } from './nonce.js';

describe('randomNonce', () => {
  it('is 45 lowercase Crockford base32 characters', () => {
    expect(randomNonce()).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
  });

  it('is fresh every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, randomNonce));
    expect(nonces.size).toBe(100);
  });
});
