/**
 * `GET /users` over HTTP: every user exactly once, in sign-up order either
 * way (ties by id), cursors bound to their query, search by substring with
 * LIKE metacharacters taken literally, and bad parameters refused.
 */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
/** Users in the order they signed up (two share a sign-up instant). */
const users: { id: string; email: string; name: string }[] = [];

const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', '100% Sure', 'snake_case', 'back\\slash', 'Édith'];

beforeAll(async () => {
  service = await startTestService();
  service.clock.set(Date.UTC(2026, 0, 1));
  for (const [index, name] of names.entries()) {
    service.clock.advance(1000);
    const email = `${name.toLowerCase().replace(/[^a-z]/g, '') || 'x'}-${index}@Example.com`;
    const answer = await call(service, 'POST', '/users', {
      headers: authHeaders(service, 'server'),
      json: { primary_email: email, display_name: name },
    });
    users.push({ id: answer.body.id, email, name });
  }
  // The second and third users signed up in the same millisecond: ties are ordered by id.
  const first = await dbOf(service.storage)
    .selectFrom('users')
    .select('signed_up_at')
    .where('id', '=', users[1]!.id)
    .executeTakeFirstOrThrow();
  await dbOf(service.storage)
    .updateTable('users')
    .set({ signed_up_at: first.signed_up_at })
    .where('id', '=', users[2]!.id)
    .execute();
});
afterAll(() => service?.close());

const list = (query: Record<string, string> = {}) =>
  call(service, 'GET', `/users?${new URLSearchParams(query)}`, { headers: authHeaders(service, 'server') });

/** The expected order: sign-up time, then id. */
function ordered(desc = false) {
  const byTime = [...users].map((user, index) => ({ ...user, time: index < 2 ? index : index - 1 }));
  byTime.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
  return (desc ? byTime.reverse() : byTime).map((user) => user.id);
}

async function pageThrough(query: Record<string, string>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const answer = await list({ ...query, ...(cursor ? { cursor } : {}) });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.is_paginated).toBe(true);
    pages.push(answer.body.items.map((user: { id: string }) => user.id));
    cursor = answer.body.pagination.next_cursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('GET /users', () => {
  it('lists every user once, oldest first by default, in the server view', async () => {
    const answer = await list();
    expect(answer.body.items.map((user: { id: string }) => user.id)).toEqual(ordered());
    expect(answer.body.pagination).toEqual({ next_cursor: null });
    expect(answer.body.items[0]).toHaveProperty('server_metadata');
  });

  it.each([false, true])('pages through everyone exactly once (desc %s), pages of 2', async (desc) => {
    const pages = await pageThrough({ limit: '2', desc: String(desc) });
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat()).toEqual(ordered(desc));
  });

  it('accepts a bare user id as the cursor: the page starts at that user (as the Stack 2.7 SDK sends)', async () => {
    const order = ordered();
    const answer = await list({ limit: '2', cursor: order[3]! });
    expect(answer.body.items.map((user: { id: string }) => user.id)).toEqual(order.slice(3, 5));
  });

  it('refuses a cursor from another list, a forged one and one naming no user', async () => {
    const first = await list({ limit: '2' });
    const cursor = first.body.pagination.next_cursor as string;
    for (const other of [{ desc: 'true' }, { query: 'a' }] as Record<string, string>[]) {
      const answer = await list({ limit: '2', cursor, ...other });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
      expect(answer.body.details.message).toBe('query.cursor: belongs to a list with another order or filter');
    }
    for (const forged of ['abc', Buffer.from('1.2.3').toString('base64url'), 'not a cursor!', `${cursor}x`]) {
      expectKnownError(await list({ cursor: forged }), 'SCHEMA_ERROR', 400);
    }
    expectKnownError(await list({ cursor: '00000000-0000-4000-8000-000000000000' }), 'SCHEMA_ERROR', 400);
  });

  it.each(['a', 'LOVELACE', 'example.com', '%', '_', '\\', 'ÉDITH', 'nobody-has-this'])(
    'searches e-mails and display names for %j, case-insensitively and literally',
    async (text) => {
      const answer = await list({ query: text });
      expect(answer.status).toBe(200);
      const expected = ordered().filter((id) => {
        const user = users.find((u) => u.id === id)!;
        return `${user.name}\n${user.email}`.toLowerCase().includes(text.toLowerCase());
      });
      expect(answer.body.items.map((user: { id: string }) => user.id)).toEqual(expected);
    },
  );

  it('finds the literal metacharacters only where they stand', async () => {
    const find = async (text: string) =>
      (await list({ query: text })).body.items.map((u: { display_name: string }) => u.display_name);
    expect(await find('%')).toEqual(['100% Sure']);
    expect(await find('_')).toEqual(['snake_case']);
    expect(await find('\\')).toEqual(['back\\slash']);
  });

  it('matches an id exactly', async () => {
    const answer = await list({ query: users[4]!.id.toUpperCase() });
    expect(answer.body.items.map((user: { id: string }) => user.id)).toEqual([users[4]!.id]);
  });

  it('pages through search results with their own cursor', async () => {
    const pages = await pageThrough({ query: 'e', limit: '1', desc: 'true' });
    const expected = ordered(true).filter((id) => {
      const user = users.find((u) => u.id === id)!;
      return `${user.name} ${user.email}`.toLowerCase().includes('e');
    });
    expect(pages.flat()).toEqual(expected);
  });

  it.each([
    ['limit', '0'],
    ['limit', '-1'],
    ['limit', '1001'],
    ['limit', 'ten'],
    ['limit', '1.5'],
    ['desc', 'yes'],
    ['order_by', 'email'],
    ['query', 'x'.repeat(257)],
  ])('refuses %s=%s with SCHEMA_ERROR', async (name, value) => {
    const answer = await list({ [name]: value });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toMatch(new RegExp(`^query\\.${name}: `));
  });

  it('answers TEAM_NOT_FOUND for a team filter (no team exists yet)', async () => {
    expectKnownError(await list({ team_id: 'some-team' }), 'TEAM_NOT_FOUND', 404);
  });

  it('lists only the project of the keys', async () => {
    const other = await service.createOtherProject();
    const answer = await call(service, 'GET', '/users', {
      headers: {
        ...authHeaders(service, 'server'),
        [h.projectId]: other.projectId,
        [h.secretServerKey]: other.keys.secretServerKey,
      },
    });
    expect(answer.body.items).toEqual([]);
  });

  it('is refused to client access', async () => {
    expectKnownError(
      await call(service, 'GET', '/users', { headers: authHeaders(service) }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
  });
});
