import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeSignIn } from './password.js';

const { signUp } = recordedAnswers;

describe('decodeSignIn', () => {
  it('reads the tokens and user id of a password sign-up answer (no is_new_user)', () => {
    expect(decodeSignIn(signUp)).toEqual({
      accessToken: signUp.access_token,
      refreshToken: signUp.refresh_token,
      userId: signUp.user_id,
      newUser: false,
    });
  });

  it('reads is_new_user where the answer carries it', () => {
    expect(decodeSignIn(withField(signUp, 'is_new_user', true)).newUser).toBe(true);
    expect(() => decodeSignIn(withField(signUp, 'is_new_user', 'yes'))).toThrow('is_new_user must be a boolean');
  });

  it.each(['access_token', 'refresh_token', 'user_id'])('refuses an answer without %s, or with it empty', (key) => {
    expect(() => decodeSignIn(without(signUp, key))).toThrow(`${key} is missing`);
    expect(() => decodeSignIn(withField(signUp, key, ''))).toThrow(`${key} must be a non-empty string`);
  });

  it('reads no refresh token in the refresh-token cookie mode, and refuses one: the service does not run that mode', () => {
    expect(decodeSignIn(without(signUp, 'refresh_token'), true)).toEqual({
      accessToken: signUp.access_token,
      refreshToken: null,
      userId: signUp.user_id,
      newUser: false,
    });
    expect(() => decodeSignIn(signUp, true)).toThrow(
      'refresh_token must be absent: the service runs without refreshTokenCookie',
    );
    expect(() => decodeSignIn(without(signUp, 'access_token'), true)).toThrow('access_token is missing');
  });
});
