import { describe, expect, it } from 'vitest';
import { errorCatalogue, type KnownErrorCode, knownErrorCodes } from './catalogue.js';
import { errorMessages, messageFor, webAuthnErrorMessages } from './messages.js';

/** Details for `code` whose values carry `marker`, so two calls can be told apart. */
function sampleDetails(code: KnownErrorCode, marker: string): never {
  const row = errorCatalogue[code] as { details?: Record<string, string> };
  if (!row.details) return undefined as never;
  const value = (type: string) =>
    type === 'number' ? marker.length : type === 'string[]' ? [marker] : type === 'null' ? null : marker;
  return Object.fromEntries(Object.entries(row.details).map(([key, type]) => [key, value(type)])) as never;
}

describe('known-error wording', () => {
  it('has a sentence for every code of the catalogue, and nothing else', () => {
    expect(Object.keys(errorMessages).sort()).toEqual([...knownErrorCodes].sort());
    for (const code of knownErrorCodes) {
      const text = messageFor(code, sampleDetails(code, 'x'));
      expect(text, code).toMatch(/^\S.{8,}$/);
      expect(text, code).not.toContain('undefined');
    }
  });

  it('words the details into the messages that take them', () => {
    const worded = knownErrorCodes.filter((code) => typeof errorMessages[code] === 'function');
    expect(worded.length).toBeGreaterThan(10);
    for (const code of worded) {
      expect(messageFor(code, sampleDetails(code, 'aa')), code).not.toBe(messageFor(code, sampleDetails(code, 'bbb')));
    }
  });

  it('keeps the wording spec §8 fixes', () => {
    expect(errorMessages).toMatchObject({
      USER_EMAIL_ALREADY_EXISTS: 'User email already exists.',
      EMAIL_PASSWORD_MISMATCH: 'Wrong e-mail or password.',
      PASSWORD_CONFIRMATION_MISMATCH: 'Passwords do not match.',
      VERIFICATION_CODE_ALREADY_USED: 'The verification link has already been used.',
      OUTER_OAUTH_TIMEOUT: 'The OAuth flow has timed out. Please sign in again.',
      INVALID_TOTP_CODE: 'Invalid TOTP code. Please try signing in again.',
    });
  });

  it('takes a page’s own table, falling back to English for codes it leaves out or entries that throw', () => {
    const table = {
      EMAIL_PASSWORD_MISMATCH: 'Mauvais mot de passe.',
      PASSWORD_TOO_SHORT: (d: { min_length: number }) => `Au moins ${d.min_length} caractères.`,
      TEAM_NOT_FOUND: () => {
        throw new Error('bad wording');
      },
    };
    expect(messageFor('EMAIL_PASSWORD_MISMATCH', undefined, table)).toBe('Mauvais mot de passe.');
    expect(messageFor('PASSWORD_TOO_SHORT', { min_length: 8 }, table)).toBe('Au moins 8 caractères.');
    expect(messageFor('USER_NOT_FOUND', undefined, table)).toBe('User not found.');
    expect(messageFor('TEAM_NOT_FOUND', { team_id: 't1' }, table)).toBe('Team t1 not found.');
  });

  it('falls back to the code when even the English entry cannot use the details', () => {
    expect(messageFor('INSUFFICIENT_ACCESS_TYPE', undefined as never)).toBe('INSUFFICIENT_ACCESS_TYPE');
  });
});

describe('WebAuthn ceremony wording (spec §8)', () => {
  it('words the eleven ceremony failures', () => {
    const codes = Object.keys(webAuthnErrorMessages);
    expect(codes).toHaveLength(11);
    for (const code of codes) expect(code).toMatch(/^ERROR_[A-Z_]+$/);
  });
});
