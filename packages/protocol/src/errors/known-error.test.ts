import { describe, expect, it } from 'vitest';
import {
  decodeKnownError,
  detailsProblem,
  encodeKnownError,
  errorCatalogue,
  errorMessages,
  isKnownError,
  KnownError,
  knownErrorCodes,
  messageFor,
  UnknownKnownErrorCode,
} from '../index.js';

describe('the known-error catalogue', () => {
  it('holds every code the Stack Auth 2.7 SDK knows, plus TEAM_ALREADY_EXISTS', () => {
    expect(knownErrorCodes).toHaveLength(89 - 10 + 1); // 89 rows in wire-protocol §13, 10 of them abstract families
    expect(knownErrorCodes).toContain('TEAM_ALREADY_EXISTS');
  });

  it('has an English message for every code', () => {
    for (const code of knownErrorCodes) {
      const row = errorCatalogue[code] as { details?: Record<string, string> };
      const sample = Object.fromEntries(
        Object.entries(row.details ?? {}).map(([k, t]) => [
          k,
          t === 'number' ? 8 : t === 'string[]' ? ['client'] : 'x',
        ]),
      );
      const text = messageFor(code, (row.details ? sample : undefined) as never);
      expect(text.length, code).toBeGreaterThan(5);
      expect(errorMessages[code], code).toBeDefined();
    }
  });

  it('encodes details with the exact keys the SDK reads', () => {
    const encoded = encodeKnownError(new KnownError('PASSWORD_TOO_LONG', { maxLength: 70 }));
    expect(encoded).toEqual({
      status: 400,
      code: 'PASSWORD_TOO_LONG',
      body: {
        code: 'PASSWORD_TOO_LONG',
        error: 'The password must be at most 70 characters long.',
        details: { maxLength: 70 },
      },
    });
  });

  it('sends ACCESS_TOKEN_EXPIRED with expired_at_millis null (decision a)', () => {
    const body = new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null }).toJSON();
    expect(body.details).toEqual({ expired_at_millis: null });
    expect(detailsProblem('ACCESS_TOKEN_EXPIRED', body.details)).toBeNull();
  });

  it('uses the wording the spec fixes', () => {
    expect(new KnownError('USER_EMAIL_ALREADY_EXISTS').message).toBe('User email already exists.');
    expect(new KnownError('EMAIL_PASSWORD_MISMATCH').message).toBe('Wrong e-mail or password.');
    expect(new KnownError('VERIFICATION_CODE_ALREADY_USED').status).toBe(409);
    expect(new KnownError('OUTER_OAUTH_TIMEOUT').status).toBe(408);
  });
});

describe('decodeKnownError', () => {
  it('rebuilds a known error from header and body', () => {
    const error = decodeKnownError('PASSWORD_TOO_SHORT', 400, {
      code: 'PASSWORD_TOO_SHORT',
      error: 'too short',
      details: { min_length: 8 },
    });
    expect(error).toBeInstanceOf(KnownError);
    expect(isKnownError(error, 'PASSWORD_REQUIREMENTS_NOT_MET')).toBe(true);
    if (isKnownError(error, 'PASSWORD_TOO_SHORT')) expect(error.details.min_length).toBe(8);
  });

  it('places codes in their families', () => {
    const expired = new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null });
    expect(expired.is('INVALID_ACCESS_TOKEN')).toBe(true);
    expect(expired.is('SESSION_AUTHENTICATION_ERROR')).toBe(true);
    expect(expired.is('REFRESH_TOKEN_ERROR')).toBe(false);
    expect(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED').is('REFRESH_TOKEN_ERROR')).toBe(true);
  });

  it('turns an unknown code into UnknownKnownErrorCode', () => {
    const error = decodeKnownError('NOT_A_CODE', 400, { code: 'NOT_A_CODE', error: 'x' });
    expect(error).toBeInstanceOf(UnknownKnownErrorCode);
    expect(error.message).toBe('Unknown KnownError code: NOT_A_CODE');
  });

  it('refuses a body whose code differs from the header', () => {
    expect(decodeKnownError('USER_NOT_FOUND', 404, { code: 'API_KEY_NOT_FOUND' })).toBeInstanceOf(
      UnknownKnownErrorCode,
    );
  });

  it('reports details that do not match the catalogue', () => {
    expect(detailsProblem('PASSWORD_TOO_SHORT', undefined)).toBe('details must be an object');
    expect(detailsProblem('PASSWORD_TOO_SHORT', { min_length: '8' })).toBe('details.min_length must be number');
    expect(detailsProblem('USER_NOT_FOUND', undefined)).toBeNull();
  });
});
