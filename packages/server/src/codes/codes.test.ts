/**
 * Verification codes on a real database: what is stored, how a code is
 * looked up and refused, the attempt limit on the typed part, expiry and
 * single use under concurrency.
 */
import { isKnownError, type KnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../crypto/hash.js';
import { crockfordAlphabet } from '../crypto/random.js';
import { inTransaction } from '../storage/db.js';
import { dbOf } from '../storage/open-storage.js';
import { startTestService, type TestService } from '../testing/index.js';
import { checkCode, codeLifetimeMs, issueCode, maxCodeAttempts, useCode, verificationCode } from './codes.js';

let service: TestService;
let otherProjectId: string;
const db = () => dbOf(service.storage);

beforeAll(async () => {
  service = await startTestService();
  otherProjectId = (await service.createOtherProject()).projectId;
});
afterAll(() => service.close());

async function refusal(work: Promise<unknown>): Promise<KnownErrorCode | 'accepted'> {
  try {
    await work;
    return 'accepted';
  } catch (error) {
    if (isKnownError(error)) return error.code;
    throw error;
  }
}

function issue(purpose: 'password_reset' | 'magic_link' = 'password_reset', now = service.clock.now()) {
  return issueCode(db(), { projectId: service.projectId, purpose, data: { user_id: 'u1' }, now });
}

/** The same code with its first (typed) character changed. */
function wrongOtp(code: string): string {
  const first = code[0] === '0' ? '1' : '0';
  return first + code.slice(1);
}

describe('issueCode', () => {
  it('makes a 45-character code whose first six characters are the OTP and the rest the nonce', async () => {
    const issued = await issue('magic_link');
    expect(issued.code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(issued.otp).toBe(issued.code.slice(0, 6).toUpperCase());
    expect(issued.nonce).toBe(issued.code.slice(6));
    expect(issued.expiresAt - service.clock.now()).toBeLessThanOrEqual(codeLifetimeMs.magic_link);
  });

  it('stores hashes only, never the code or its nonce', async () => {
    const issued = await issue();
    const row = await db()
      .selectFrom('verification_codes')
      .selectAll()
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(issued.code);
    expect(JSON.stringify(row)).not.toContain(issued.nonce);
    expect(row.code_hash).toBe(sha256Hex(issued.code));
  });
});

describe('checkCode', () => {
  it('finds a fresh code of its project and purpose without using it', async () => {
    const issued = await issue();
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, code: issued.code };
    expect((await checkCode(db(), { ...lookup, now: service.clock.now() })).data).toEqual({ user_id: 'u1' });
    expect((await checkCode(db(), { ...lookup, now: service.clock.now() })).id).toBe(issued.id);
  });

  it('does not find a code under another project or purpose', async () => {
    const { code } = await issue();
    const now = service.clock.now();
    expect(await refusal(checkCode(db(), { projectId: otherProjectId, purpose: 'password_reset', code, now }))).toBe(
      'VERIFICATION_CODE_NOT_FOUND',
    );
    expect(await refusal(checkCode(db(), { projectId: service.projectId, purpose: 'magic_link', code, now }))).toBe(
      'VERIFICATION_CODE_NOT_FOUND',
    );
  });

  it('does not find a code nobody issued', async () => {
    const code = 'a'.repeat(45);
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, code, now: service.clock.now() };
    expect(await refusal(checkCode(db(), lookup))).toBe('VERIFICATION_CODE_NOT_FOUND');
  });

  it(`kills a code after ${maxCodeAttempts} wrong guesses of its typed part, even for the right code then`, async () => {
    const { code } = await issue('magic_link');
    const lookup = { projectId: service.projectId, purpose: 'magic_link' as const, now: service.clock.now() };
    const answers: string[] = [];
    for (let guess = 0; guess < maxCodeAttempts; guess++) {
      answers.push(await refusal(checkCode(db(), { ...lookup, code: wrongOtp(code) })));
    }
    expect(answers).toEqual([
      ...Array(maxCodeAttempts - 1).fill('VERIFICATION_CODE_NOT_FOUND'),
      'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
    ]);
    expect(await refusal(checkCode(db(), { ...lookup, code }))).toBe('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  });

  it('refuses an expired code', async () => {
    const { code } = await issue('magic_link');
    const later = service.clock.now() + codeLifetimeMs.magic_link + 1;
    const lookup = { projectId: service.projectId, purpose: 'magic_link' as const, code, now: later };
    expect(await refusal(checkCode(db(), lookup))).toBe('VERIFICATION_CODE_EXPIRED');
  });
});

describe('useCode', () => {
  it('uses a code once; a second check says it was used', async () => {
    const { code } = await issue();
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, code, now: service.clock.now() };
    const row = await checkCode(db(), lookup);
    await useCode(db(), row, lookup.now);
    expect(await refusal(checkCode(db(), lookup))).toBe('VERIFICATION_CODE_ALREADY_USED');
  });

  it('lets exactly one of two concurrent uses win', async () => {
    const { code } = await issue();
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, code, now: service.clock.now() };
    const row = await checkCode(db(), lookup);
    const outcomes = await Promise.all(
      [1, 2].map(() => refusal(inTransaction(db(), (trx) => useCode(trx, row, lookup.now)))),
    );
    expect(outcomes.sort()).toEqual(['VERIFICATION_CODE_ALREADY_USED', 'accepted']);
  });
});

describe('verificationCode (request schema)', () => {
  const code = crockfordAlphabet.repeat(2).slice(0, 45);

  it('accepts the code in any case and lower-cases it', () => {
    expect(verificationCode.parse(code.toUpperCase())).toBe(code);
  });

  it.each([
    ['empty', ''],
    ['too short', code.slice(1)],
    ['too long', `${code}0`],
    ['not a string', 42],
  ])('refuses a code that is %s', (_name, value) => {
    expect(verificationCode.safeParse(value).success).toBe(false);
  });

  it('leaves what 45 characters hold to checkCode: characters no code has are simply not found', async () => {
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, now: service.clock.now() };
    for (const value of [`i${code.slice(1)}`, ` ${code.slice(1)}`, `${'-'.repeat(44)}x`]) {
      const parsed = verificationCode.parse(value);
      expect(await refusal(checkCode(db(), { ...lookup, code: parsed }))).toBe('VERIFICATION_CODE_NOT_FOUND');
    }
  });

  it('counts a typed part outside the alphabet as a wrong guess', async () => {
    const issued = await issue();
    const lookup = { projectId: service.projectId, purpose: 'password_reset' as const, now: service.clock.now() };
    const guess = verificationCode.parse(`IIIIII${issued.nonce}`);
    expect(await refusal(checkCode(db(), { ...lookup, code: guess }))).toBe('VERIFICATION_CODE_NOT_FOUND');
    const row = await db()
      .selectFrom('verification_codes')
      .select('attempts')
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
  });
});
