import { clientMessages, KnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { HttpError, MalformedAnswerError } from '../../errors.js';
import { jsonAnswer, knownErrorAnswer } from '../../test-support/answers.js';
import { recordRequest } from '../../test-support/recorded-request.js';
import { fakeAccessToken } from '../../test-support/tokens.js';
import { createRefresher, processRefreshResponse, refreshRequestBody } from './refresh-request.js';

const url = 'https://a.example/api/v1/auth/oauth/token';
const now = 1_000_000_000;

describe('the refresh request', () => {
  it('is a form-encoded refresh_token grant with the project id and publishable key as client credentials', async () => {
    expect(refreshRequestBody('rt 1', 'proj', 'pck_x')).toBe(
      'grant_type=refresh_token&refresh_token=rt+1&client_id=proj&client_secret=pck_x',
    );
    // A session whose store keeps a rotated token asks for one.
    expect(refreshRequestBody('rt 1', 'proj', 'pck_x', true)).toBe(
      'grant_type=refresh_token&refresh_token=rt+1&client_id=proj&client_secret=pck_x&latchkey_refresh_rotation=1',
    );
    const seen: Array<[string, RequestInit]> = [];
    const refresh = createRefresher({
      baseUrl: 'https://a.example/',
      projectId: 'proj',
      publishableClientKey: 'pck_x',
      clock: { now: () => now },
      fetch: async (input, init) => {
        seen.push([input, init]);
        return jsonAnswer({ access_token: fakeAccessToken(now + 600_000), token_type: 'Bearer' });
      },
    });
    await expect(refresh('rt')).resolves.toMatchObject({ kind: 'refreshed' });
    const recorded = recordRequest(...seen[0]!);
    expect(recorded).toMatchObject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: { grant_type: 'refresh_token', refresh_token: 'rt', client_id: 'proj', client_secret: 'pck_x' },
    });
    expect(Object.keys(recorded.headers).filter((h) => h.startsWith('x-stack-'))).toEqual([]);
    expect(seen[0]![1]).toMatchObject({ credentials: 'omit', cache: 'no-store' });
  });
});

describe('the refresh request in the refresh-token cookie mode', () => {
  it('leaves refresh_token out of the form, asks for the cookie mode and sends cookies', async () => {
    expect(refreshRequestBody(null, 'proj', 'pck_x')).toBe(
      'grant_type=refresh_token&client_id=proj&client_secret=pck_x',
    );
    const seen: Array<[string, RequestInit]> = [];
    const refresh = createRefresher({
      baseUrl: 'https://a.example',
      projectId: 'proj',
      publishableClientKey: 'pck_x',
      clock: { now: () => now },
      serviceCookie: true,
      fetch: async (input, init) => {
        seen.push([input, init]);
        return jsonAnswer({ access_token: fakeAccessToken(now + 600_000), token_type: 'Bearer' });
      },
    });
    await expect(refresh(null)).resolves.toMatchObject({ kind: 'refreshed' });
    const recorded = recordRequest(...seen[0]!);
    expect(recorded.body).toEqual({ grant_type: 'refresh_token', client_id: 'proj', client_secret: 'pck_x' });
    expect(recorded.headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      'x-latchkey-refresh-cookie': '1',
    });
    expect(seen[0]![1]).toMatchObject({ credentials: 'include', cache: 'no-store' });
  });
});

describe('processRefreshResponse', () => {
  it('keeps access_token, and the refresh_token of a rotation (null without one)', async () => {
    const token = fakeAccessToken(now + 600_000);
    const rotated = jsonAnswer({ access_token: token, refresh_token: 'rt-2', token_type: 'Bearer' });
    expect(await processRefreshResponse(rotated, url, now)).toEqual({
      kind: 'done',
      value: { kind: 'refreshed', accessToken: token, refreshToken: 'rt-2' },
    });
    const stable = jsonAnswer({ access_token: token, token_type: 'Bearer' });
    expect(await processRefreshResponse(stable, url, now)).toEqual({
      kind: 'done',
      value: { kind: 'refreshed', accessToken: token, refreshToken: null },
    });
  });

  it('treats the REFRESH_TOKEN_ERROR family as a refused refresh', async () => {
    for (const code of ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 'PROVIDER_REJECTED'] as const) {
      const outcome = await processRefreshResponse(knownErrorAnswer(code, false), url, now);
      expect(outcome).toMatchObject({ kind: 'done', value: { kind: 'refused', error: { code } } });
    }
  });

  it('throws other known errors', async () => {
    const answer = knownErrorAnswer(new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: 'x' }), false);
    await expect(processRefreshResponse(answer, url, now)).rejects.toMatchObject({
      code: 'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    });
  });

  it('refuses a freshly issued token with less than 20 s left', async () => {
    const answer = jsonAnswer({ access_token: fakeAccessToken(now + 19_000), token_type: 'Bearer' });
    await expect(processRefreshResponse(answer.clone(), url, now)).rejects.toBeInstanceOf(HttpError);
    await expect(processRefreshResponse(answer, url, now)).rejects.toThrow(clientMessages.accessTokenTooShort);
  });

  it('refuses an answer without access_token, naming the call and the field', async () => {
    const missing = processRefreshResponse(jsonAnswer({ token_type: 'Bearer' }), url, now);
    await expect(missing).rejects.toBeInstanceOf(MalformedAnswerError);
    await expect(missing).rejects.toThrow(
      "The service's answer to POST /auth/oauth/token is malformed: access_token is missing",
    );
    await expect(processRefreshResponse(jsonAnswer({ access_token: 42 }), url, now)).rejects.toThrow(
      'access_token must be a non-empty string',
    );
    await expect(processRefreshResponse(jsonAnswer({ access_token: '' }), url, now)).rejects.toThrow(
      'access_token must be a non-empty string',
    );
  });
});
