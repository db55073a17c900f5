import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestTokens } from './request-tokens.js';

const projectId = 'p1';
const refreshToken = 'r'.repeat(45);
const accessToken = 'header.payload.signature';
const authHeader = JSON.stringify({ accessToken, refreshToken });
/** The cookies the browser token store writes (values percent-encoded). */
const cookie = [
  `stack-refresh-${projectId}=${refreshToken}`,
  `stack-access=${encodeURIComponent(JSON.stringify([refreshToken, accessToken]))}`,
].join('; ');
const both = { accessToken, refreshToken };
const none = { accessToken: null, refreshToken: null };

function nodeRequest(headers: Record<string, string | string[]>): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.headers = headers;
  return message;
}

describe('requestTokens', () => {
  it.each([
    ['a Fetch Request', new Request('https://app.example/', { headers: { cookie } })],
    ['a Node IncomingMessage', nodeRequest({ cookie })],
    ['a Headers object', new Headers({ cookie })],
    ['a plain headers object, any case', { Cookie: cookie }],
    ['a request-like object with plain headers', { headers: { cookie } }],
  ])('reads the cookies of %s', (_, source) => {
    expect(requestTokens(source, projectId)).toEqual(both);
  });

  it('prefers the x-stack-auth header (what user.getAuthHeaders() gives) to cookies', () => {
    const other = JSON.stringify({ accessToken: 'a.b.c', refreshToken: 'other' });
    expect(requestTokens(new Headers({ 'x-stack-auth': other, cookie }), projectId)).toEqual({
      accessToken: 'a.b.c',
      refreshToken: 'other',
    });
    expect(requestTokens(nodeRequest({ 'x-stack-auth': authHeader }), projectId)).toEqual(both);
  });

  it('falls back to cookies when x-stack-auth is not a JSON object', () => {
    for (const value of ['not json', '"text"', 'null']) {
      expect(requestTokens(new Headers({ 'x-stack-auth': value, cookie }), projectId)).toEqual(both);
    }
  });

  it('keeps only string tokens of x-stack-auth', () => {
    const value = JSON.stringify({ accessToken: 7, refreshToken });
    expect(requestTokens(new Headers({ 'x-stack-auth': value }), projectId)).toEqual({
      accessToken: null,
      refreshToken,
    });
  });

  it('joins repeated cookie headers of a plain object', () => {
    const [refresh, access] = cookie.split('; ');
    expect(requestTokens({ cookie: [refresh!, access!] }, projectId)).toEqual(both);
  });

  it('trusts the access cookie only when stored with the current refresh token (wire-protocol §8)', () => {
    const stale = `stack-refresh-${projectId}=new; stack-access=${encodeURIComponent(JSON.stringify(['old', accessToken]))}`;
    expect(requestTokens(new Headers({ cookie: stale }), projectId)).toEqual({
      accessToken: null,
      refreshToken: 'new',
    });
  });

  it("reads the legacy stack-refresh cookie, and not another project's", () => {
    expect(requestTokens(new Headers({ cookie: `stack-refresh=${refreshToken}` }), projectId)).toEqual({
      accessToken: null,
      refreshToken,
    });
    expect(requestTokens(new Headers({ cookie: `stack-refresh-p2=${refreshToken}` }), projectId)).toEqual(none);
  });

  it('reads no tokens from a request without them', () => {
    expect(requestTokens(new Request('https://app.example/'), projectId)).toEqual(none);
    expect(requestTokens({}, projectId)).toEqual(none);
  });

  it('takes tokens given as they are', () => {
    expect(requestTokens({ accessToken, refreshToken }, projectId)).toEqual(both);
    expect(requestTokens({ refreshToken }, projectId)).toEqual({ accessToken: null, refreshToken });
  });
});

describe('requestTokens with an Authorization header', () => {
  it('reads a bearer access token when the request carries no other tokens', () => {
    expect(requestTokens(new Headers({ authorization: `Bearer ${accessToken}` }), projectId)).toEqual({
      accessToken,
      refreshToken: null,
    });
    expect(requestTokens({ Authorization: `bearer ${accessToken}` }, projectId)).toEqual({
      accessToken,
      refreshToken: null,
    });
  });

  it('prefers x-stack-auth and cookies to it, and ignores other schemes', () => {
    const both = new Headers({ authorization: 'Bearer other.token.here', cookie });
    expect(requestTokens(both, projectId)).toEqual({ accessToken, refreshToken });
    expect(requestTokens(new Headers({ authorization: 'Basic dXNlcjpwYXNz' }), projectId)).toEqual(none);
  });
});
