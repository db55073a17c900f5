import { describe, expect, it } from 'vitest';
import { knownErrorCodes } from './catalogue.js';
import { encodeKnownError } from './encode.js';
import { KnownError } from './known-error.js';
import { messageFor } from './messages.js';

describe('encodeKnownError', () => {
  it('sends the status, the code for the header and the English wording', () => {
    expect(encodeKnownError(new KnownError('PASSWORD_TOO_LONG', { maxLength: 70 }))).toEqual({
      status: 400,
      code: 'PASSWORD_TOO_LONG',
      body: {
        code: 'PASSWORD_TOO_LONG',
        error: 'The password must be at most 70 characters long.',
        details: { maxLength: 70 },
      },
    });
    expect(encodeKnownError(new KnownError('USER_EMAIL_ALREADY_EXISTS')).body).toEqual({
      code: 'USER_EMAIL_ALREADY_EXISTS',
      error: 'User email already exists.',
    });
  });

  it('words every code without details from the table', () => {
    for (const code of knownErrorCodes) {
      const error = new KnownError(code as 'USER_NOT_FOUND');
      if (error.details !== undefined) continue;
      expect(encodeKnownError(error).body.error, code).toBe(messageFor(code as 'USER_NOT_FOUND', undefined));
    }
  });

  it('keeps a message given on purpose', () => {
    const error = new KnownError('SCHEMA_ERROR', { message: 'body.email: Invalid' }, 'Check the e-mail address.');
    expect(encodeKnownError(error).body.error).toBe('Check the e-mail address.');
  });

  it('sends details the catalogue types as null even when the error left them out (decision a)', () => {
    const error = new KnownError('ADMIN_ACCESS_TOKEN_EXPIRED', {} as { expired_at_millis: null });
    expect(encodeKnownError(error).body.details).toEqual({ expired_at_millis: null });
  });
});
