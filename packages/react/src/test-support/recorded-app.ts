/**
 * The real `ClientApp` over recorded answers, for the states a live service
 * cannot be held in (an account connected at a provider the test cannot
 * reach, a load held open, a failing load): the SDK runs as it does in a
 * page, only its `fetch` answers from a table of `METHOD /path` (below
 * `/api/v1`) instead of asking a service. A call the table does not answer
 * fails the test.
 */
import { ClientApp, type ClientAppOptions } from '@latchkey/js';
import {
  type ClientProjectWire,
  type ClientUserWire,
  encodeKnownError,
  headers,
  KnownError,
  type KnownErrorCode,
} from '@latchkey/protocol';

/** Answers by `METHOD /path`; a function is asked at each call. */
export type Answers = Record<string, () => Response | Promise<Response>>;

/** A 2xx JSON answer. */
export function jsonAnswer(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A known-error answer, its status in the header the SDK asks for. */
export function knownErrorAnswer(code: KnownErrorCode): Response {
  const encoded = encodeKnownError(new KnownError(code as 'USER_NOT_FOUND'));
  return new Response(JSON.stringify(encoded.body), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [headers.knownError]: encoded.code,
      [headers.actualStatus]: String(encoded.status),
    },
  });
}

/** The project's public settings as `GET /projects/current` answers. */
export function projectAnswer(displayName = 'Demo project'): ClientProjectWire {
  return {
    id: 'p',
    display_name: displayName,
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: false,
      passkey_enabled: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: false,
      enabled_oauth_providers: [],
    },
  };
}

/** An access token the SDK reads as valid until 2100 (it checks no signature). */
const accessToken = [{ alg: 'ES256' }, { sub: 'user-1', aud: 'p', exp: 4_102_444_800, iat: 1_700_000_000 }, 'signature']
  .map((part) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url'))
  .join('.');

/** The signed-in user as `GET /users/me` answers, with `fields` over the defaults. */
export function userAnswer(fields: Partial<ClientUserWire> = {}): ClientUserWire {
  return {
    id: 'user-1',
    primary_email: 'ada@example.com',
    primary_email_verified: true,
    display_name: 'Ada Lovelace',
    selected_team: null,
    selected_team_id: null,
    profile_image_url: null,
    signed_up_at_millis: 1_700_000_000_000,
    has_password: true,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    client_metadata: {},
    client_read_only_metadata: {},
    oauth_providers: [],
    auth_with_email: true,
    requires_totp_mfa: false,
    ...fields,
  };
}

/**
 * A `ClientApp` answered by `answers`, signed in (a session of the recorded
 * user) unless `signedIn` is false. `calls` lists every `METHOD /path` it sent.
 */
export function recordedApp(answers: Answers, options: { signedIn?: boolean } & Partial<ClientAppOptions> = {}) {
  const calls: string[] = [];
  const navigations: string[] = [];
  const { signedIn = true, ...rest } = options;
  const app = new ClientApp({
    projectId: 'p',
    publishableClientKey: 'pck_recorded',
    baseUrl: 'https://auth.example',
    tokenStore: signedIn ? { accessToken, refreshToken: 'recorded-refresh-token' } : 'memory',
    navigate: (url) => navigations.push(url),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const call = `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, '')}`;
      calls.push(call);
      const answer = answers[call];
      if (!answer) throw new Error(`no recorded answer for ${call}`);
      return answer();
    },
    ...rest,
  });
  return { app, calls, navigations, accessToken };
}
