import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';
import { checkRefreshTokenCookie } from './refresh-cookie-env.js';

describe('LATCHKEY_REFRESH_TOKEN_COOKIE', () => {
  it('turns the mode on with its SameSite, or leaves it off', () => {
    expect(checkRefreshTokenCookie(undefined)).toBeUndefined();
    expect(checkRefreshTokenCookie('')).toBeUndefined();
    expect(checkRefreshTokenCookie('off')).toBeUndefined();
    expect(checkRefreshTokenCookie('lax')).toBe('Lax');
    expect(checkRefreshTokenCookie('on')).toBe('Lax');
    expect(checkRefreshTokenCookie(' Strict ')).toBe('Strict');
  });

  it('refuses anything else in one line, so a typo does not leave the mode off unnoticed', () => {
    expect(() => checkRefreshTokenCookie('yes please')).toThrow(CliError);
    expect(() => checkRefreshTokenCookie('none')).toThrow('LATCHKEY_REFRESH_TOKEN_COOKIE must be lax, strict or off');
  });
});
