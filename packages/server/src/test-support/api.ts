/**
 * Helpers for tests that drive a test service over HTTP: request building,
 * answer reading, known-error assertions and row counts.
 */
import {
  detailsProblem,
  headers as h,
  isKnownErrorCode,
  type KnownErrorCode,
  refreshRotationField,
} from '@latchkey/protocol';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import type { TestService } from '../testing/index.js';

export type AccessType = 'client' | 'server' | 'admin';

/** The headers the SDK sends for `accessType` with the test project's key for it (override on). */
export function authHeaders(service: TestService, accessType: AccessType = 'client'): Record<string, string> {
  const base: Record<string, string> = {
    [h.overrideErrorStatus]: 'true',
    [h.projectId]: service.projectId,
    [h.accessType]: accessType,
    [h.clientVersion]: 'js @latchkey/test@0.0.0',
    [h.publishableClientKey]: service.keys.publishableClientKey,
  };
  if (accessType !== 'client') base[h.secretServerKey] = service.keys.secretServerKey;
  if (accessType === 'admin') base[h.superSecretAdminKey] = service.keys.superSecretAdminKey;
  return base;
}

/** Headers of a signed-in user. */
export function userHeaders(
  service: TestService,
  tokens: { access_token: string; refresh_token?: string },
  accessType: AccessType = 'client',
): Record<string, string> {
  return {
    ...authHeaders(service, accessType),
    [h.accessToken]: tokens.access_token,
    ...(tokens.refresh_token ? { [h.refreshToken]: tokens.refresh_token } : {}),
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert their shape.
  body: any;
  text: string;
}

/** Sends a request over HTTP. `json` sets a JSON body; `body` sends raw text. */
export async function call(
  service: TestService,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<Answer> {
  const headers = { ...(options.headers ?? {}) };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${service.apiUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * Asserts a known-error answer: the code header and body agree, `details`
 * matches the catalogue, and the status sits where the request asked for it
 * (200 + `x-stack-actual-status` with the override header, else the real one).
 */
export function expectKnownError(answer: Answer, code: KnownErrorCode, status: number, overridden = true): void {
  expect({ code: answer.headers.get(h.knownError), body: answer.body?.code }).toEqual({ code, body: code });
  expect(isKnownErrorCode(answer.body.code)).toBe(true);
  expect(detailsProblem(code, answer.body.details)).toBeNull();
  expect(typeof answer.body.error).toBe('string');
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  if (overridden) {
    expect(answer.status).toBe(200);
    expect(answer.headers.get(h.actualStatus)).toBe(String(status));
  } else {
    expect(answer.status).toBe(status);
    expect(answer.headers.get(h.actualStatus)).toBeNull();
  }
}

/**
 * Asserts a plain status error (wire-protocol §4.2): the text as body, no
 * known-error header, the status as `expectKnownError` reads it.
 */
export function expectStatusRefusal(answer: Answer, status: number, text: string, overridden = true): void {
  expect(answer.text).toBe(text);
  expect(answer.headers.get(h.knownError)).toBeNull();
  expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect([answer.status, answer.headers.get(h.actualStatus)]).toEqual(
    overridden ? [200, String(status)] : [status, null],
  );
}

let counter = 0;

/** A fresh e-mail address. */
export function newEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export const goodPassword = 'correct-horse-1';

/** Signs a new user up and returns the answer's tokens and the credentials. */
export async function signUp(service: TestService, email = newEmail(), password = goodPassword) {
  const answer = await call(service, 'POST', '/auth/password/sign-up', {
    headers: authHeaders(service),
    json: { email, password },
  });
  expect(answer.status, answer.text).toBe(200);
  return { ...(answer.body as { access_token: string; refresh_token: string; user_id: string }), email, password };
}

/**
 * `POST /auth/oauth/token` with `grant_type=refresh_token`, as the SDK sends it
 * (client_secret_post); with `rotate`, as our SDK does when it stores rotated tokens.
 */
export function refreshGrant(
  service: TestService,
  refreshToken: string,
  options: { rotate?: boolean } = {},
): Promise<Answer> {
  const form = new URLSearchParams({
    refresh_token: refreshToken,
    grant_type: 'refresh_token',
    client_id: service.projectId,
    client_secret: service.keys.publishableClientKey,
  });
  if (options.rotate) form.set(refreshRotationField, '1');
  return call(service, 'POST', '/auth/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: form.toString(),
  });
}

/** Rows of `table` in the test project (every table has `project_id`). */
export async function countRows(
  service: TestService,
  table: 'users' | 'sessions' | 'api_key_sets' | 'signing_keys' | 'webhook_endpoints' | 'contact_channels',
  projectId = service.projectId,
): Promise<number> {
  const row = await dbOf(service.storage)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * What a refused request must leave alone: the project's users, sessions,
 * teams, memberships, grants and permission definitions, and every project's
 * contact channels, queued mails and codes (a code's use included), since a
 * refusal must not touch another project either.
 */
export async function snapshot(service: TestService) {
  const db = dbOf(service.storage);
  const ofProject = service.projectId;
  const users = await db.selectFrom('users').selectAll().where('project_id', '=', ofProject).orderBy('id').execute();
  const sessions = await countRows(service, 'sessions');
  const channels = await db.selectFrom('contact_channels').selectAll().orderBy('id').execute();
  const mails = await db
    .selectFrom('email_outbox')
    .select('id')
    .where('project_id', '=', ofProject)
    .orderBy('id')
    .execute();
  const codes = await db.selectFrom('verification_codes').select(['id', 'used_at', 'team_id']).orderBy('id').execute();
  const teams = await db.selectFrom('teams').selectAll().where('project_id', '=', ofProject).orderBy('id').execute();
  const members = await db
    .selectFrom('team_members')
    .selectAll()
    .where('project_id', '=', ofProject)
    .orderBy('team_id')
    .orderBy('user_id')
    .execute();
  const grants = await db
    .selectFrom('team_member_permissions')
    .selectAll()
    .where('project_id', '=', ofProject)
    .orderBy('team_id')
    .orderBy('user_id')
    .orderBy('permission_id')
    .execute();
  const definitions = await db
    .selectFrom('team_permission_definitions')
    .select(['id', 'description'])
    .where('project_id', '=', ofProject)
    .orderBy('id')
    .execute();
  const inclusions = await db
    .selectFrom('team_permission_inclusions')
    .select(['permission_id', 'contained_id'])
    .where('project_id', '=', ofProject)
    .orderBy('permission_id')
    .orderBy('contained_id')
    .execute();
  const oauthAccounts = await db
    .selectFrom('oauth_accounts')
    .selectAll()
    .where('project_id', '=', ofProject)
    .orderBy('provider_id')
    .orderBy('account_id')
    .execute();
  return { users, sessions, channels, mails, codes, teams, members, grants, definitions, inclusions, oauthAccounts };
}

/**
 * One hash of what `snapshot` reads, and the project's row and key sets, in a
 * single query: cheap enough to take after every request of a fuzz run.
 * Counters, codes' attempt counts, audit events and mail delivery (a worker
 * changes it in the background) are left out: a refused request may count.
 */
export async function digest(service: TestService): Promise<string> {
  const p = service.projectId;
  const result = await sql<{ digest: string }>`select md5(concat_ws('|',
    (select string_agg(t::text, ',' order by t.id) from projects t where t.id = ${p}),
    (select string_agg(t::text, ',' order by t.id) from api_key_sets t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t.id) from users t where t.project_id = ${p}),
    (select count(*)::text from sessions t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t.id) from contact_channels t),
    (select count(*)::text from email_outbox t where t.project_id = ${p}),
    (select string_agg(t.id::text || ':' || coalesce(t.used_at::text, ''), ',' order by t.id) from verification_codes t),
    (select string_agg(t::text, ',' order by t.id) from teams t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t.team_id, t.user_id) from team_members t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t::text) from team_member_permissions t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t::text) from team_permission_definitions t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t::text) from team_permission_inclusions t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t::text) from oauth_accounts t where t.project_id = ${p}),
    (select string_agg(t::text, ',' order by t::text) from email_templates t where t.project_id = ${p})
  )) as digest`.execute(dbOf(service.storage));
  return result.rows[0]!.digest;
}

/**
 * Polls `probe` until it answers true; resolves with the milliseconds it took,
 * and fails after `limitMs` (default one second): "on every instance within a second".
 */
export async function within(probe: () => Promise<boolean>, limitMs = 1_000): Promise<number> {
  const started = performance.now();
  while (!(await probe())) {
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}
