/**
 * A small in-memory stand-in for the service, for unit tests of `ClientApp`:
 * it records every request and answers the handful of routes the client
 * uses, per wire-protocol.md. Integration tests use the real service instead.
 */
import { type ClientUserWire, headers, KnownError, type KnownErrorCode } from '@latchkey/protocol';
import { decodeJwtPayload } from '../internal/session/jwt.js';
import { jsonAnswer, knownErrorAnswer } from './answers.js';
import { fakeAccessToken } from './tokens.js';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  contentType: string | null;
  body: unknown;
}

export const testProjectId = '8a3f9c52-5e2c-4f6b-9a1d-2f6d1c0b7e41';
export const testPublishableKey = 'pck_rcmnqnya6tqcfzzfcd00v32j4sa98fk245mfk68wkg19r';

/** Parses what the SDK handed to `fetch`. */
export function recordRequest(input: string, init: RequestInit = {}): RecordedRequest {
  const url = new URL(input);
  const requestHeaders = Object.fromEntries(new Headers(init.headers).entries());
  const contentType = requestHeaders['content-type'] ?? null;
  const raw = typeof init.body === 'string' ? init.body : null;
  let body: unknown = null;
  if (raw !== null)
    body = contentType?.startsWith('application/json') ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
  return {
    method: init.method ?? 'GET',
    url: input,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams.entries()),
    headers: requestHeaders,
    contentType,
    body,
  };
}

interface StoredUser {
  wire: ClientUserWire;
  password: string;
}

type Interceptor = (request: RecordedRequest) => Response | undefined;

export interface FakeServiceOptions {
  clock: { now(): number };
  accessTokenLifetimeMs?: number;
}

export function createFakeService(options: FakeServiceOptions) {
  const lifetime = options.accessTokenLifetimeMs ?? 600_000;
  const users = new Map<string, StoredUser>();
  const sessions = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const interceptors: Interceptor[] = [];
  const settings = { clientUserDeletionEnabled: true };
  let counter = 0;

  const issueTokens = (userId: string) => {
    counter++;
    const refreshToken = `rt${String(counter).padStart(43, '0')}`;
    sessions.set(refreshToken, userId);
    return { access_token: accessTokenFor(userId), refresh_token: refreshToken, user_id: userId };
  };
  const accessTokenFor = (userId: string) =>
    fakeAccessToken(options.clock.now() + lifetime, { sub: userId, jti: ++counter });

  const fail = (request: RecordedRequest, error: KnownError | KnownErrorCode) =>
    knownErrorAnswer(error, request.headers[headers.overrideErrorStatus] === 'true');

  const currentUserId = (request: RecordedRequest): string | KnownErrorCode | null => {
    const token = request.headers[headers.accessToken];
    if (!token) return null;
    const payload = decodeJwtPayload(token);
    if (!payload || typeof payload.sub !== 'string') return 'UNPARSABLE_ACCESS_TOKEN';
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= options.clock.now()) return 'ACCESS_TOKEN_EXPIRED';
    return users.has(payload.sub) ? payload.sub : null;
  };

  const routes: Record<string, (request: RecordedRequest, userId: string | null) => Response> = {
    'POST /auth/password/sign-up': (request) => {
      const { email, password } = request.body as { email: string; password: string };
      if ([...users.values()].some((u) => u.wire.primary_email === email))
        return fail(request, 'USER_EMAIL_ALREADY_EXISTS');
      if (password.length < 8) return fail(request, new KnownError('PASSWORD_TOO_SHORT', { min_length: 8 }));
      const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
      users.set(id, { wire: newUserWire(id, email, options.clock.now()), password });
      return jsonAnswer(issueTokens(id));
    },
    'POST /auth/password/sign-in': (request) => {
      const { email, password } = request.body as { email: string; password: string };
      const user = [...users.values()].find((u) => u.wire.primary_email === email);
      if (!user || user.password !== password) return fail(request, 'EMAIL_PASSWORD_MISMATCH');
      return jsonAnswer(issueTokens(user.wire.id));
    },
    'GET /users/me': (request, userId) =>
      userId ? jsonAnswer(users.get(userId)!.wire) : fail(request, 'CANNOT_GET_OWN_USER_WITHOUT_USER'),
    'PATCH /users/me': (request, userId) => {
      if (!userId) return fail(request, 'USER_AUTHENTICATION_REQUIRED');
      const user = users.get(userId)!;
      user.wire = { ...user.wire, ...(request.body as Partial<ClientUserWire>) };
      return jsonAnswer(user.wire);
    },
    'DELETE /users/me': (request, userId) => {
      if (!userId) return fail(request, 'USER_AUTHENTICATION_REQUIRED');
      if (!settings.clientUserDeletionEnabled) return fail(request, 'USER_AUTHENTICATION_REQUIRED');
      users.delete(userId);
      for (const [token, owner] of sessions) if (owner === userId) sessions.delete(token);
      return jsonAnswer({ success: true });
    },
    'DELETE /auth/sessions/current': (request) => {
      const token = request.headers[headers.refreshToken];
      if (!token || !sessions.delete(token)) return fail(request, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
      return jsonAnswer({ success: true });
    },
    'GET /projects/current': () => jsonAnswer(projectWire()),
    'POST /auth/oauth/token': (request) => {
      const form = request.body as Record<string, string>;
      const userId = sessions.get(form.refresh_token ?? '');
      if (!userId) return fail(request, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
      return jsonAnswer({ access_token: accessTokenFor(userId), token_type: 'Bearer', scope: 'legacy' });
    },
  };

  const handle = (request: RecordedRequest): Response => {
    for (const [index, interceptor] of interceptors.entries()) {
      const answer = interceptor(request);
      if (answer) {
        interceptors.splice(index, 1);
        return answer;
      }
    }
    const route = routes[`${request.method} ${request.path.replace('/api/v1', '')}`];
    if (!route) return new Response('Not found', { status: 404 });
    if (
      request.path !== '/api/v1/auth/oauth/token' &&
      request.headers[headers.publishableClientKey] !== testPublishableKey
    ) {
      return fail(request, new KnownError('INVALID_PUBLISHABLE_CLIENT_KEY', { project_id: testProjectId }));
    }
    const userId = currentUserId(request);
    if (userId && !users.has(userId)) return fail(request, userId as KnownErrorCode);
    return route(request, userId);
  };

  return {
    requests,
    settings,
    sessions,
    fetch: async (input: string, init?: RequestInit) => {
      const request = recordRequest(input, init);
      requests.push(request);
      return handle(request);
    },
    /** Answers the next request matching `method path` with `answer` (once). */
    interceptNext(methodAndPath: string, answer: () => Response) {
      interceptors.push((r) =>
        `${r.method} ${r.path.replace('/api/v1', '')}` === methodAndPath ? answer() : undefined,
      );
    },
    /** `method path` of every request so far. */
    calls: () => requests.map((r) => `${r.method} ${r.path.replace('/api/v1', '')}`),
  };
}

export type FakeService = ReturnType<typeof createFakeService>;

function newUserWire(id: string, email: string, now: number): ClientUserWire {
  return {
    id,
    primary_email: email,
    primary_email_verified: false,
    display_name: null,
    selected_team: null,
    selected_team_id: null,
    profile_image_url: null,
    signed_up_at_millis: now,
    has_password: true,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    client_metadata: null,
    client_read_only_metadata: null,
    oauth_providers: [],
    auth_with_email: true,
    requires_totp_mfa: false,
  };
}

function projectWire() {
  return {
    id: testProjectId,
    display_name: 'Test project',
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: false,
      passkey_enabled: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: true,
      enabled_oauth_providers: [{ id: 'github' }],
    },
  };
}
