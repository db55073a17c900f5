import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import {
  betterAuthHash,
  betterAuthScrypt,
  firebaseHashConfig,
  firebaseScrypt,
  firebaseUserHash,
  passlibScrypt,
  pbkdf2Sha256,
} from '../test-support/imported-hashes.js';
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

describe('imported hash kinds', () => {
  const kinds = (): [string, string, string][] => {
    const firebase = firebaseHashConfig();
    return [
      ['scrypt PHC (passlib default: ln=16, r=8, p=1)', passlibScrypt('moved-pass-1'), 'moved-pass-1'],
      ['PBKDF2-SHA256, passlib layout', pbkdf2Sha256('moved-pass-2', 29_000, 'passlib'), 'moved-pass-2'],
      ['PBKDF2-SHA256, PHC layout', pbkdf2Sha256('moved-pass-3', 600_000, 'phc'), 'moved-pass-3'],
      ['Firebase scrypt', firebaseScrypt(firebase, firebaseUserHash('moved-pass-4', firebase)), 'moved-pass-4'],
      ['Better Auth scrypt', betterAuthScrypt(betterAuthHash('moved-pass-5')), 'moved-pass-5'],
    ];
  };

  it.each(kinds())('verifies %s, refuses a wrong password, and wants a rehash', async (_, hash, password) => {
    expect(isImportablePasswordHash(hash)).toBe(true);
    expect(await verifyPassword(hash, password)).toBe(true);
    expect(await verifyPassword(hash, `${password}x`)).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
    expect(needsRehash(hash)).toBe(true);
  });

  it('verifies argon2i hashes: version 19, 16, and none (argon2-cffi before 16.0), down to 8 KiB a lane', async () => {
    const v19 = await argon2Hash('moved-pass-6', { algorithm: 1, memoryCost: 512, timeCost: 2, parallelism: 2 });
    const v16 = await argon2Hash('moved-pass-6', { algorithm: 1, memoryCost: 4096, timeCost: 3, version: 0 });
    for (const hash of [v19, v16, v16.replace('$v=16$', '$')]) {
      expect(isImportablePasswordHash(hash), hash).toBe(true);
      expect(await verifyPassword(hash, 'moved-pass-6')).toBe(true);
      expect(await verifyPassword(hash, 'moved-pass-7')).toBe(false);
      expect(needsRehash(hash)).toBe(true);
    }
  });

  it("matches Firebase's published sample (github.com/firebase/scrypt README)", async () => {
    const config = {
      signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      saltSeparator: 'Bw==',
      rounds: 8,
      memCost: 14,
    };
    const user = {
      passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
      salt: '42xEC+ixf3L2lw==',
    };
    // Our generator computes it as Firebase does, and our verification reads it.
    expect(firebaseUserHash('user1password', config, user.salt)).toEqual(user);
    const hash = firebaseScrypt(config, user);
    expect(isImportablePasswordHash(hash)).toBe(true);
    expect(await verifyPassword(hash, 'user1password')).toBe(true);
    expect(await verifyPassword(hash, 'user2password')).toBe(false);
  });

  it('normalizes the password to NFKC for a Better Auth hash, as Better Auth does', async () => {
    const hash = betterAuthScrypt(betterAuthHash('caf\u00e9-pass-1'));
    expect(await verifyPassword(hash, 'cafe\u0301-pass-1')).toBe(true);
    expect(await verifyPassword(hash, 'cafe-pass-1')).toBe(false);
  });

  it('verifies off the event loop, in the hashing slots', async () => {
    const hasher = new PasswordHasher(1);
    const hash = passlibScrypt('moved-pass-1', { ln: 14 });
    const checks = [hasher.verify(hash, 'moved-pass-1'), hasher.verify(hash, 'nope')];
    expect(hasher.state()).toEqual({ running: 1, waiting: 1, slots: 1 });
    let turns = 0;
    let done = false;
    const all = Promise.all(checks).finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns += 1;
    }
    expect(await all).toEqual([true, false]);
    expect(turns).toBeGreaterThan(1);
  });

  const salt = 'c29tZXNhbHRzb21lc2FsdA';
  const key32 = 'a'.repeat(43);
  const firebaseParams = (over: Record<string, string | number> = {}) => {
    const params = { rounds: 8, mem_cost: 14, signer_key: 'A'.repeat(86), salt_separator: 'Bw==', ...over };
    return Object.entries(params)
      .map(([name, value]) => `${name}=${value}`)
      .join(',');
  };
  const firebaseHash = `${'B'.repeat(86)}==`;
  it('accepts the same shapes at the bounds', () => {
    for (const hash of [
      `$scrypt$ln=16,r=8,p=4$${salt}$${key32}`,
      `$scrypt$p=16,r=2,ln=16$${salt}$${key32}`,
      `$pbkdf2-sha256$i=2000000$${salt}$${key32}`,
      `$pbkdf2-sha256$1000000$${salt.replace('c', '.')}$${'a'.repeat(86)}`,
      `$firebase-scrypt$${firebaseParams()}$${salt}$${firebaseHash}`,
      `$firebase-scrypt$${firebaseParams({ mem_cost: 16, rounds: 4 })}$${salt}$${firebaseHash}`,
      `$better-auth-scrypt$${'ab'.repeat(16)}$${'cd'.repeat(64)}`,
      `$argon2i$v=19$m=65536,t=10,p=8$${salt}$${key32}`,
      `$argon2id$v=19$m=32,t=1,p=4$${salt}$${key32}`,
    ]) {
      expect(isImportablePasswordHash(hash), hash).toBe(true);
    }
  });

  it.each([
    ['scrypt of 128 MiB (ln=17, r=8)', `$scrypt$ln=17,r=8,p=1$${salt}$${key32}`],
    ['scrypt of 320 MiB of work (ln=16, r=8, p=5)', `$scrypt$ln=16,r=8,p=5$${salt}$${key32}`],
    ['scrypt of N = 2^40', `$scrypt$ln=40,r=1,p=1$${salt}$${key32}`],
    ['scrypt with r=0', `$scrypt$ln=14,r=0,p=1$${salt}$${key32}`],
    ['scrypt with a parameter twice', `$scrypt$ln=14,r=8,r=8$${salt}$${key32}`],
    ['scrypt with an unknown parameter', `$scrypt$ln=14,r=8,p=1,x=1$${salt}$${key32}`],
    ['scrypt with a salt not in base64', `$scrypt$ln=14,r=8,p=1$not*base64$${key32}`],
    ['scrypt with a 4-byte key', `$scrypt$ln=14,r=8,p=1$${salt}$AAAAAA`],
    ['scrypt with no key', `$scrypt$ln=14,r=8,p=1$${salt}`],
    ['scrypt with a field more', `$scrypt$ln=14,r=8,p=1$${salt}$${key32}$x`],
    ['PBKDF2 of 2,000,001 iterations', `$pbkdf2-sha256$i=2000001$${salt}$${key32}`],
    ['PBKDF2 of 1,500,000 iterations for 64 bytes', `$pbkdf2-sha256$1500000$${salt}$${'a'.repeat(86)}`],
    ['PBKDF2 of 0 iterations', `$pbkdf2-sha256$0$${salt}$${key32}`],
    ['PBKDF2 of 10^12 iterations', `$pbkdf2-sha256$1000000000000$${salt}$${key32}`],
    ['PBKDF2-SHA1', `$pbkdf2$29000$${salt}$${'a'.repeat(27)}`],
    ['Firebase scrypt of mem_cost 20', `$firebase-scrypt$${firebaseParams({ mem_cost: 20 })}$${salt}$${firebaseHash}`],
    ['Firebase scrypt of rounds 0', `$firebase-scrypt$${firebaseParams({ rounds: 0 })}$${salt}$${firebaseHash}`],
    [
      'Firebase scrypt of rounds 64 at mem_cost 14',
      `$firebase-scrypt$${firebaseParams({ rounds: 64 })}$${salt}$${firebaseHash}`,
    ],
    [
      'Firebase scrypt without its separator',
      `$firebase-scrypt$rounds=8,mem_cost=14,signer_key=${'A'.repeat(86)}$${salt}$${firebaseHash}`,
    ],
    ['Firebase scrypt whose hash is not its key’s length', `$firebase-scrypt$${firebaseParams()}$${salt}$${key32}`],
    ['Better Auth scrypt with a 32-byte key', `$better-auth-scrypt$${'ab'.repeat(16)}$${'cd'.repeat(32)}`],
    ['Better Auth scrypt with a salt not hex', `$better-auth-scrypt$${'xy'.repeat(16)}$${'cd'.repeat(64)}`],
    ['Better Auth salt:key as Better Auth stores it', `${'ab'.repeat(16)}:${'cd'.repeat(64)}`],
    ['argon2i of 1 GiB', `$argon2i$v=19$m=1048576,t=2,p=1$${salt}$${key32}`],
    ['argon2id below 8 KiB a lane', `$argon2id$v=19$m=8,t=2,p=4$${salt}$${key32}`],
    ['argon2d', `$argon2d$v=19$m=19456,t=2,p=1$${salt}$${key32}`],
    ['argon2i of version 18', `$argon2i$v=18$m=4096,t=2,p=1$${salt}$${key32}`],
  ])('refuses %s at import, and verifies nothing against it', async (_, hash) => {
    expect(isImportablePasswordHash(hash)).toBe(false);
    if (!hash.startsWith('$argon2')) expect(await verifyPassword(hash, 'any-password')).toBe(false);
  });
});
