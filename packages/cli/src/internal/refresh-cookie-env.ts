import { CliError } from './errors.js';

/**
 * `LATCHKEY_REFRESH_TOKEN_COOKIE`: the refresh-token cookie mode of the
 * service (`refreshTokenCookie` of `createService`) and its `SameSite`:
 * `lax` (or `on`), `strict`, else off (unset, empty or `off`). A one-line
 * error for anything else, so a typo does not leave the mode off unnoticed.
 *
 * @example
 * const sameSite = checkRefreshTokenCookie(context.env.LATCHKEY_REFRESH_TOKEN_COOKIE); // 'Lax' | 'Strict' | undefined
 */
export function checkRefreshTokenCookie(value: string | undefined): 'Lax' | 'Strict' | undefined {
  switch ((value ?? '').trim().toLowerCase()) {
    case '':
    case 'off':
      return undefined;
    case 'on':
    case 'lax':
      return 'Lax';
    case 'strict':
      return 'Strict';
    default:
      throw new CliError('LATCHKEY_REFRESH_TOKEN_COOKIE must be lax, strict or off');
  }
}
