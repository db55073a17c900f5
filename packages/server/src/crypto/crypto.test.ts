/** Random tokens, hashing and encryption at rest. */
import { describe, expect, it } from 'vitest';
import { createSealer } from './encryption.js';
import { constantTimeEqual, sha256Hex } from './hash.js';
import { crockfordAlphabet, randomCrockford, randomRequestId, randomToken } from './random.js';

describe('random tokens', () => {
  it('are 45 lowercase Crockford base32 characters and do not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, randomToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(randomRequestId()).toMatch(/^[0-9a-hjkmnp-tv-z]{16}$/);
  });

  it('request ids: 16 Crockford characters, none repeated in 100,000', () => {
    const ids = new Set(Array.from({ length: 100_000 }, randomRequestId));
    expect(ids.size).toBe(100_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{16}$/);
  });

  it('use every character of the alphabet about equally', () => {
    const counts = new Map<string, number>();
    for (const char of randomCrockford(64_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe(crockfordAlphabet);
    for (const count of counts.values()) expect(Math.abs(count - 2000)).toBeLessThan(300);
  });
});

describe('hashing', () => {
  it('hashes to hex SHA-256 and compares in constant time', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('sealer', () => {
  const sealer = createSealer('a master secret of at least 32 chars', 'test');

  it('round-trips and never repeats a ciphertext', () => {
    const a = sealer.seal('private jwk', 'row-1');
    expect(sealer.seal('private jwk', 'row-1')).not.toBe(a);
    expect(sealer.open(a, 'row-1')).toBe('private jwk');
    expect(a).not.toContain('private');
  });

  it('refuses another row, another secret, another purpose and tampering', () => {
    const sealed = sealer.seal('private jwk', 'row-1');
    expect(() => sealer.open(sealed, 'row-2')).toThrow();
    expect(() => createSealer('another master secret of 32 chars!', 'test').open(sealed, 'row-1')).toThrow();
    expect(() => createSealer('a master secret of at least 32 chars', 'other').open(sealed, 'row-1')).toThrow();
    // The second-to-last character changes for sure (deciding by the last one left 1 run in 64 unchanged).
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => sealer.open(flipped, 'row-1')).toThrow();
    expect(() => sealer.open('v2.x.y', 'row-1')).toThrow(/format/);
  });

  it('refuses a truncated auth tag (a 4-byte tag is forged in 2^32 tries)', () => {
    // Regression: without authTagLength, Node's GCM accepts 4- to 16-byte tags,
    // so an empty value sealed with the first 4 bytes of its tag opened.
    const [prefix, iv, body] = sealer.seal('', 'row-1').split('.');
    const tag = Buffer.from(body!, 'base64url');
    for (const length of [4, 8, 12]) {
      const truncated = `${prefix}.${iv}.${tag.subarray(0, length).toString('base64url')}`;
      expect(() => sealer.open(truncated, 'row-1')).toThrow(/malformed/);
    }
    expect(sealer.open(sealer.seal('', 'row-1'), 'row-1')).toBe('');
  });

  it('refuses an IV that is not 12 bytes', () => {
    const [prefix, , body] = sealer.seal('private jwk', 'row-1').split('.');
    expect(() => sealer.open(`${prefix}.${Buffer.alloc(16).toString('base64url')}.${body}`, 'row-1')).toThrow(
      /malformed/,
    );
  });
});
