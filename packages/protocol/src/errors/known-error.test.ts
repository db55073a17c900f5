import { describe, expect, it } from 'vitest';
import { errorCatalogue, type KnownErrorCode, knownErrorCodes } from './catalogue.js';
import { encodeKnownError } from './encode.js';
import { decodeKnownError, detailsProblem, isKnownError, KnownError, UnknownKnownErrorCode } from './known-error.js';

/** Details that satisfy a catalogue row, so every code can be built. */
function sampleDetails(code: KnownErrorCode): never {
  const row = errorCatalogue[code] as { details?: Record<string, string> };
  if (!row.details) return undefined as never;
  const samples: Record<string, unknown> = { number: 8, 'string[]': ['client'], null: null, json: [{ a: 1 }] };
  return Object.fromEntries(
    Object.entries(row.details).map(([key, type]) => [key, type in samples ? samples[type] : 'x']),
  ) as never;
}

describe('KnownError', () => {
  it('takes its status from the catalogue and its message from the caller, else its code', () => {
    const error = new KnownError('USER_EMAIL_ALREADY_EXISTS');
    expect(error).toMatchObject({ name: 'KnownError', code: 'USER_EMAIL_ALREADY_EXISTS', status: 409 });
    expect(error.message).toBe('USER_EMAIL_ALREADY_EXISTS');
    expect(new KnownError('PASSWORD_TOO_SHORT', { min_length: 8 }, 'Too short.').message).toBe('Too short.');
    expect(new KnownError('VERIFICATION_CODE_ALREADY_USED').status).toBe(409);
    expect(new KnownError('OUTER_OAUTH_TIMEOUT').status).toBe(408);
  });

  it('places codes in their families', () => {
    const expired = new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null });
    expect(expired.is('INVALID_ACCESS_TOKEN')).toBe(true);
    expect(expired.is('SESSION_AUTHENTICATION_ERROR')).toBe(true);
    expect(expired.is('REFRESH_TOKEN_ERROR')).toBe(false);
    expect(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED').is('REFRESH_TOKEN_ERROR')).toBe(true);
    expect(isKnownError(expired)).toBe(true);
    expect(isKnownError(expired, 'ACCESS_TOKEN_EXPIRED')).toBe(true);
    expect(isKnownError(new Error('x'))).toBe(false);
  });

  it('sends ACCESS_TOKEN_EXPIRED with expired_at_millis null (decision a)', () => {
    const body = new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null }).toJSON();
    expect(body.details).toEqual({ expired_at_millis: null });
    expect(detailsProblem('ACCESS_TOKEN_EXPIRED', body.details)).toBeNull();
  });
});

describe('decodeKnownError', () => {
  it('round-trips every code through encodeKnownError: code, status, details and message', () => {
    for (const code of knownErrorCodes) {
      const encoded = encodeKnownError(new KnownError(code, sampleDetails(code)));
      const decoded = decodeKnownError(encoded.code, encoded.status, JSON.parse(JSON.stringify(encoded.body)));
      expect(decoded, code).toBeInstanceOf(KnownError);
      expect(decoded, code).toMatchObject({ code, status: encoded.status, message: encoded.body.error });
      expect((decoded as KnownError).details, code).toEqual(encoded.body.details);
      expect(detailsProblem(code, (decoded as KnownError).details), code).toBeNull();
    }
  });

  it('rebuilds a known error from header and body, keeping the service’s message', () => {
    const error = decodeKnownError('PASSWORD_TOO_SHORT', 400, {
      code: 'PASSWORD_TOO_SHORT',
      error: 'too short',
      details: { min_length: 8 },
    });
    expect(error).toBeInstanceOf(KnownError);
    expect(error.message).toBe('too short');
    expect(isKnownError(error, 'PASSWORD_REQUIREMENTS_NOT_MET')).toBe(true);
    if (isKnownError(error, 'PASSWORD_TOO_SHORT')) expect(error.details.min_length).toBe(8);
  });

  it('fills null details the service left out (decision a) and uses the code when no message came', () => {
    const error = decodeKnownError('ACCESS_TOKEN_EXPIRED', 401, { code: 'ACCESS_TOKEN_EXPIRED' });
    expect(error).toMatchObject({ message: 'ACCESS_TOKEN_EXPIRED', details: { expired_at_millis: null } });
  });

  it('turns an unknown code into UnknownKnownErrorCode', () => {
    const error = decodeKnownError('NOT_A_CODE', 400, { code: 'NOT_A_CODE', error: 'x' });
    expect(error).toBeInstanceOf(UnknownKnownErrorCode);
    expect(error).toMatchObject({ code: 'NOT_A_CODE', status: 400, body: { code: 'NOT_A_CODE', error: 'x' } });
    expect(error.message).toBe('Unknown KnownError code: NOT_A_CODE');
  });

  it('refuses a body whose code differs from the header, or no body at all', () => {
    expect(decodeKnownError('USER_NOT_FOUND', 404, { code: 'API_KEY_NOT_FOUND' })).toBeInstanceOf(
      UnknownKnownErrorCode,
    );
    expect(decodeKnownError('USER_NOT_FOUND', 404, undefined)).toBeInstanceOf(UnknownKnownErrorCode);
    expect(decodeKnownError('USER_NOT_FOUND', 404, 'USER_NOT_FOUND')).toBeInstanceOf(UnknownKnownErrorCode);
  });
});

describe('detailsProblem', () => {
  it('reports details that do not match the catalogue', () => {
    expect(detailsProblem('PASSWORD_TOO_SHORT', undefined)).toBe('details must be an object');
    expect(detailsProblem('PASSWORD_TOO_SHORT', [8])).toBe('details must be an object');
    expect(detailsProblem('PASSWORD_TOO_SHORT', { min_length: '8' })).toBe('details.min_length must be number');
    expect(detailsProblem('SCHEMA_ERROR', { message: '' })).toBe('details.message must be string');
    expect(
      detailsProblem('INSUFFICIENT_ACCESS_TYPE', { actual_access_type: 'client', allowed_access_types: [1] }),
    ).toBe('details.allowed_access_types must be string[]');
    expect(detailsProblem('USER_NOT_FOUND', undefined)).toBeNull();
  });
});
