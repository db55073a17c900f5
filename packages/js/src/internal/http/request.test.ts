import { KnownError } from '@latchkey/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { FetchFunction } from '../../options.js';
import { jsonAnswer, knownErrorAnswer } from '../../test-support/answers.js';
import { recordRequest } from '../../test-support/recorded-request.js';
import { publishableKeyCredentials, type SessionTokenSource, withSession } from './credentials.js';
import { apiUrl, createPipeline } from './request.js';

describe('apiUrl', () => {
  it('builds <baseUrl>/api/v1<path> without trailing slashes', () => {
    expect(apiUrl('https://a.example/', '/users/me')).toBe('https://a.example/api/v1/users/me');
    expect(apiUrl('https://a.example', '/teams/')).toBe('https://a.example/api/v1/teams');
    expect(apiUrl('https://a.example/base//', '/x')).toBe('https://a.example/base/api/v1/x');
    expect(apiUrl('https://a.example/api/v1/', '/x')).toBe('https://a.example/api/v1/x');
  });

  it('adds defined query values only', () => {
    expect(apiUrl('https://a.example', '/teams', { user_id: 'me', cursor: undefined })).toBe(
      'https://a.example/api/v1/teams?user_id=me',
    );
  });
});

function recordingFetch(answer: () => Response = () => jsonAnswer({})) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch: FetchFunction = async (url, init) => {
    calls.push({ url, init });
    return answer();
  };
  return { fetch, calls };
}

describe('the request pipeline', () => {
  const keys = publishableKeyCredentials('pck_test');

  it('sends the protocol headers, the credentials and the fetch options', async () => {
    const { fetch, calls } = recordingFetch();
    await createPipeline({ baseUrl: 'https://a.example', projectId: 'proj', fetch })(
      { method: 'GET', path: '/x' },
      keys,
    );
    const [{ url, init }] = calls as [{ url: string; init: RequestInit }];
    const recorded = recordRequest(url, init);
    expect(recorded.headers).toEqual({
      'x-stack-override-error-status': 'true',
      'x-stack-project-id': 'proj',
      'x-stack-access-type': 'client',
      'x-stack-client-version': 'js @latchkey/js@0.1.0',
      'x-stack-publishable-client-key': 'pck_test',
      'x-stack-random-nonce': expect.stringMatching(/^[0-9a-z]{45}$/),
    });
    expect(init).toMatchObject({ method: 'GET', credentials: 'omit', cache: 'no-store' });
    expect(init.body).toBeUndefined();
  });

  it('sends content-type only with a body', async () => {
    const { fetch, calls } = recordingFetch();
    const send = createPipeline({ baseUrl: 'https://a.example', projectId: 'proj', fetch });
    await send({ method: 'DELETE', path: '/users/me' }, keys);
    await send({ method: 'DELETE', path: '/auth/sessions/current', body: {} }, keys);
    expect(recordRequest(calls[0]!.url, calls[0]!.init).contentType).toBeNull();
    expect(recordRequest(calls[1]!.url, calls[1]!.init)).toMatchObject({ contentType: 'application/json', body: {} });
  });

  it('uses a fresh nonce per request', async () => {
    const { fetch, calls } = recordingFetch();
    const send = createPipeline({ baseUrl: 'https://a.example', projectId: 'proj', fetch });
    await send({ method: 'GET', path: '/x' }, keys);
    await send({ method: 'GET', path: '/x' }, keys);
    const nonces = calls.map((c) => new Headers(c.init.headers).get('x-stack-random-nonce'));
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('adds both session tokens, and after INVALID_ACCESS_TOKEN drops the token and retries', async () => {
    let accessToken = 'at-1';
    const session: SessionTokenSource = {
      getTokens: async () => ({ accessToken, refreshToken: 'rt' }),
      markAccessTokenExpired: vi.fn(() => {
        accessToken = 'at-2';
      }),
    };
    const answers = [() => knownErrorAnswer('UNPARSABLE_ACCESS_TOKEN'), () => jsonAnswer({ id: 'u' })];
    const { fetch, calls } = recordingFetch(() => answers.shift()!());
    const send = createPipeline({ baseUrl: 'https://a.example', projectId: 'proj', fetch });
    await expect(send({ method: 'GET', path: '/users/me' }, withSession(keys, session))).resolves.toEqual({ id: 'u' });
    expect(session.markAccessTokenExpired).toHaveBeenCalledWith('at-1');
    const sent = calls.map((c) => new Headers(c.init.headers));
    expect(sent.map((h) => h.get('x-stack-access-token'))).toEqual(['at-1', 'at-2']);
    expect(sent.every((h) => h.get('x-stack-refresh-token') === 'rt')).toBe(true);
  });

  it('sends no user tokens when the session has none', async () => {
    const session: SessionTokenSource = { getTokens: async () => null, markAccessTokenExpired: () => {} };
    const { fetch, calls } = recordingFetch();
    await createPipeline({ baseUrl: 'https://a.example', projectId: 'p', fetch })(
      { method: 'GET', path: '/users/me' },
      withSession(keys, session),
    );
    const sent = new Headers(calls[0]!.init.headers);
    expect(sent.has('x-stack-access-token') || sent.has('x-stack-refresh-token')).toBe(false);
  });

  it('does not retry an invalid access token without a session to repair it', async () => {
    const { fetch, calls } = recordingFetch(() => knownErrorAnswer('ACCESS_TOKEN_EXPIRED'));
    const send = createPipeline({ baseUrl: 'https://a.example', projectId: 'p', fetch });
    await expect(send({ method: 'GET', path: '/x' }, keys)).rejects.toBeInstanceOf(KnownError);
    expect(calls).toHaveLength(1);
  });
});
