import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { defaultHashingSlots, isImportablePasswordHash, needsRehash, PasswordHasher } from './passwords.js';

const passwords = new PasswordHasher();
const hashPassword = (password: string) => passwords.hash(password);
const verifyPassword = (hash: string | null, password: string) => passwords.verify(hash, password);

// Written by the `argon2` package (node-argon2 0.45), which hashed passwords before
// `@node-rs/argon2`: it orders the parameters m, p, t. Stored hashes like these must keep verifying.
const nodeArgon2Current =
  '$argon2id$v=19$m=19456,p=1,t=2$JMoEvnydwzD9mhZXZsYRfA$qXL4xccpAtnjNRP4wk9kr7C/hDZHIeRe9X8neCyzCRQ';
const nodeArgon2Older =
  '$argon2id$v=19$m=8192,p=1,t=3$pMYqXQhe7e0VmRvFzELS9A$jd7WMrXmwX9cWkWQ37YSEfhbaFrnAWihK6i0HjwiMU4';

describe('hashPassword', () => {
  it('writes an argon2id PHC string of 19 MiB, 2 passes, 1 lane that verifies', async () => {
    const hash = await hashPassword('correct-horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword(hash, 'correct-horse-1')).toBe(true);
    expect(await verifyPassword(hash, 'correct-horse-2')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(isImportablePasswordHash(hash)).toBe(true);
  });

  it('hashes off the event loop: timers keep running while a hash is computed', async () => {
    let turns = 0;
    let done = false;
    const hashing = hashPassword('correct-horse-1').finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns += 1;
    }
    await hashing;
    expect(turns).toBeGreaterThan(1);
  });
});

describe('verifyPassword', () => {
  it('verifies hashes written by the argon2 package, in its m, p, t order', async () => {
    expect(await verifyPassword(nodeArgon2Current, 'old-binding-pass-1')).toBe(true);
    expect(await verifyPassword(nodeArgon2Current, 'old-binding-pass-2')).toBe(false);
    expect(await verifyPassword(nodeArgon2Older, 'old-binding-pass-2')).toBe(true);
  });

  it('verifies imported bcrypt hashes, and refuses a password longer than bcrypt reads', async () => {
    const hash = await bcrypt.hash('imported-pass-1', 4);
    expect(await verifyPassword(hash, 'imported-pass-1')).toBe(true);
    expect(await verifyPassword(hash, 'imported-pass-2')).toBe(false);
    const long = 'x'.repeat(72);
    const longHash = await bcrypt.hash(long, 4);
    expect(await verifyPassword(longHash, long)).toBe(true);
    expect(await verifyPassword(longHash, `${long}y`)).toBe(false);
  });

  it('is false, not an error, with no hash or a malformed one', async () => {
    expect(await verifyPassword(null, 'correct-horse-1')).toBe(false);
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$nonsense', 'correct-horse-1')).toBe(false);
    expect(await verifyPassword('plain text', 'plain text')).toBe(false);
  });
});

describe('hashing slots', () => {
  it('default to one fewer than the cores, and to all of them on one or two', () => {
    expect([1, 2, 3, 4, 8].map(defaultHashingSlots)).toEqual([1, 2, 2, 3, 7]);
  });

  it('run at most that many hashes at once; the others wait their turn and all finish', async () => {
    const hasher = new PasswordHasher(1);
    const hash = await hasher.hash('correct-horse-1');
    const checks = [hasher.hash('a-password-2'), hasher.verify(hash, 'correct-horse-1'), hasher.verify(hash, 'no')];
    expect(hasher.state()).toEqual({ running: 1, waiting: 2, slots: 1 });
    const [second, right, wrong] = await Promise.all(checks);
    expect([typeof second, right, wrong]).toEqual(['string', true, false]);
    expect(hasher.state()).toMatchObject({ running: 0, waiting: 0 });
    hasher.setSlots(2);
    const both = [hasher.hash('x-password-3'), hasher.hash('y-password-4'), hasher.hash('z-password-5')];
    expect(hasher.state()).toMatchObject({ running: 2, waiting: 1 });
    await Promise.all(both);
    expect(() => hasher.setSlots(0)).toThrow(TypeError);
  });

  it('serve clean sign-ins before suspect ones (their account or client failed lately)', async () => {
    const hasher = new PasswordHasher(1);
    const hash = await hasher.hash('correct-horse-1');
    const finished: string[] = [];
    const track = (name: string, check: Promise<boolean>) => check.then(() => finished.push(name));
    const busy = track('busy', hasher.verify(hash, 'x'));
    const guesses = [1, 2, 3].map((n) => track(`guess ${n}`, hasher.verify(hash, `guess-${n}`, { suspect: true })));
    const clean = track('clean', hasher.verify(hash, 'correct-horse-1'));
    await Promise.all([busy, clean, ...guesses]);
    expect(finished).toEqual(['busy', 'clean', 'guess 1', 'guess 2', 'guess 3']);
  });

  it('keep one slot of several from suspect hashes, so a clean sign-in starts at once among guesses', async () => {
    const hasher = new PasswordHasher(2);
    const hash = await hasher.hash('correct-horse-1');
    const guesses = [1, 2, 3].map((n) => hasher.verify(hash, `guess-${n}`, { suspect: true }));
    expect(hasher.state()).toMatchObject({ running: 1, waiting: 2 });
    const clean = hasher.verify(hash, 'correct-horse-1');
    expect(hasher.state()).toMatchObject({ running: 2, waiting: 2 });
    expect(await clean).toBe(true);
    expect(await Promise.all(guesses)).toEqual([false, false, false]);
    expect(hasher.state()).toMatchObject({ running: 0, waiting: 0 });
    // Without guesses, every slot serves clean sign-ins.
    const cleanOnes = [1, 2, 3].map(() => hasher.verify(hash, 'correct-horse-1'));
    expect(hasher.state()).toMatchObject({ running: 2, waiting: 1 });
    await Promise.all(cleanOnes);
  });
});

describe('needsRehash', () => {
  it('reads the parameters by name, whatever their order', () => {
    expect(needsRehash(nodeArgon2Current)).toBe(false);
    const reordered = nodeArgon2Current.replace('m=19456,p=1,t=2', 't=2,p=1,m=19456');
    expect(needsRehash(reordered)).toBe(false);
  });

  it('is true for other parameters, other algorithms, bcrypt and garbage', () => {
    expect(needsRehash(nodeArgon2Older)).toBe(true);
    expect(needsRehash(nodeArgon2Current.replace('p=1', 'p=2'))).toBe(true);
    expect(needsRehash(nodeArgon2Current.replace('$argon2id$', '$argon2i$'))).toBe(true);
    expect(needsRehash(nodeArgon2Current.replace('v=19', 'v=16'))).toBe(true);
    expect(needsRehash('$2b$04$abcdefghijklmnopqrstuuvwxyzabcdefghijklmnopqrstuvwxyz1')).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=19456')).toBe(true);
  });

  it('belong to one hasher (one per service): the busy slots of another hold nothing back', async () => {
    const busy = new PasswordHasher(1);
    const other = new PasswordHasher(1);
    const hash = await busy.hash('correct-horse-1');
    const waiting = [busy.verify(hash, 'correct-horse-1'), busy.verify(hash, 'correct-horse-1')];
    expect(busy.state()).toEqual({ running: 1, waiting: 1, slots: 1 });
    const mine = other.verify(hash, 'correct-horse-1');
    expect(other.state()).toEqual({ running: 1, waiting: 0, slots: 1 });
    other.setSlots(3);
    expect(busy.state().slots).toBe(1);
    expect(await Promise.all([mine, ...waiting])).toEqual([true, true, true]);
  });
});
