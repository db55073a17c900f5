import { constants } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { emailError, newPasswordError, validateCredentials } from './validation.js';

describe('validateCredentials', () => {
  it('accepts a well-formed sign-up at the service limits', () => {
    const min = 'x'.repeat(constants.passwordMinLength);
    const max = 'x'.repeat(constants.passwordMaxLength);
    expect(validateCredentials('sign-up', { email: 'a@b.example', password: min })).toEqual({});
    expect(validateCredentials('sign-up', { email: 'a@localhost', password: max })).toEqual({});
  });

  it('rejects e-mail addresses without the local@domain shape', () => {
    for (const email of ['plain', 'a@', '@b.c', 'a b@c.d', 'a@b..c', 'a@b@c']) {
      expect(validateCredentials('sign-in', { email, password: 'p' }).email, email).toBeDefined();
    }
  });

  it('rewords with a messages table', () => {
    expect(validateCredentials('sign-in', { email: '', password: '' }, { EMAIL_REQUIRED: 'E-mail?' })).toEqual({
      email: 'E-mail?',
      password: 'Enter your password.',
    });
  });
});

describe('emailError and newPasswordError, the checks the e-mail pages share', () => {
  it('checks a trimmed address', () => {
    expect(emailError('  ada@example.com ')).toBeUndefined();
    expect(emailError('   ')).toBe('Enter your e-mail address.');
    expect(emailError('ada@', { EMAIL_INVALID: 'Adresse invalide.' })).toBe('Adresse invalide.');
  });

  it('holds a new password to the service limits', () => {
    expect(newPasswordError('')).toBe('Enter your password.');
    expect(newPasswordError('x'.repeat(constants.passwordMinLength - 1))).toBe(
      'The password must be at least 8 characters long.',
    );
    expect(newPasswordError('x'.repeat(constants.passwordMinLength))).toBeUndefined();
    expect(newPasswordError('x'.repeat(constants.passwordMaxLength + 1))).toBe(
      'The password must be at most 70 characters long.',
    );
  });
});
