/**
 * The storage contract of what the service keeps beside users and teams:
 * projects and their owners, API key sets, sessions, signing keys, e-mail
 * templates, the outbox, the audit log and the rate-limit counters, on every
 * backend.
 */
import { randomUUID } from 'node:crypto';
import { internalProjectId } from '@latchkey/protocol';
import { expect, it } from 'vitest';
import {
  findKeySet,
  findUnrevokedKeys,
  findValidKeyHashes,
  insertKeySet,
  listKeySets,
  updateKeySet,
} from '../api-keys/api-key-store.js';
import { auditEventInsert, deleteAuditEventsBefore, listAuditEvents } from '../audit/audit-store.js';
import { sha256Hex } from '../crypto/hash.js';
import {
  deleteTemplate,
  findStoredTemplate,
  listStoredTemplates,
  saveTemplate,
} from '../email-templates/email-template-store.js';
import {
  claimDueMails,
  deleteFinishedMailsBefore,
  dropMailBodiesBefore,
  enqueueMail,
  findMail,
  listMailboxMails,
  listProjectMails,
  markMailFailed,
  markMailSent,
  releaseMails,
} from '../mail/outbox-store.js';
import { openContent, outboxSealer } from '../mail/sealed-mail.js';
import {
  countOwnedProjects,
  findOwnership,
  insertProjectOwner,
  listOwnedProjectRows,
} from '../projects/project-owner-store.js';
import {
  changeProject,
  changeProjectConfig,
  deleteProjectRow,
  findProjectRow,
  insertProject,
  listProjectIds,
} from '../projects/project-store.js';
import { countAttempt, deleteFailuresBefore, uncountAttempt } from '../rate-limit/attempt-store.js';
import { countHit, deleteCountersBefore } from '../rate-limit/rate-limit-store.js';
import {
  createSession,
  deleteSessionById,
  deleteUserSessionsExcept,
  findSession,
  listUserSessions,
  lockUserSession,
  rotateSessionToken,
  sessionExists,
} from '../sessions/session-store.js';
import { describeEachBackend, useBackendStorage } from '../test-support/backends.js';
import { projectRow, rowsOf, userRow } from '../test-support/contract-rows.js';
import {
  findActiveKey,
  findPublicKey,
  insertActiveKeyIfNone,
  listPublicKeys,
  listSealedKeys,
  updateSealedKey,
} from '../tokens/signing-key-store.js';
import { inTransaction, writeTogether } from './db.js';
import { dbOf } from './open-storage.js';
import { isUniqueViolation } from './schema.js';

describeEachBackend('service storage contract', (backend) => {
  const storage = useBackendStorage(backend);
  const db = () => dbOf(storage());
  const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  const old = Date.UTC(2001, 0, 1);

  it('inserts a project once with its config as JSON; changes and deletes it', async () => {
    const id = `p-${randomUUID()}`;
    const project = { id, displayName: 'P', description: null, createdAt: new Date(now), isProductionMode: false };
    const config = { list: [1, { a: null }], text: 'é' };
    const row = await insertProject(db(), { ...project, config });
    expect(row).toMatchObject({ id, display_name: 'P', config, is_production_mode: false });
    expect(row?.created_at.getTime()).toBe(now);
    expect(await insertProject(db(), { ...project, config: {} }, { ifAbsent: true })).toBeNull();
    await expect(insertProject(db(), { ...project, config: {} })).rejects.toSatisfy((e) => isUniqueViolation(e));
    expect((await findProjectRow(db(), id))?.config).toEqual(config);
    expect(await findProjectRow(db(), 'bad\u0000id')).toBeNull();

    expect(await changeProjectConfig(db(), id, (stored) => ({ ...(stored as object), more: true }))).toEqual({
      ...config,
      more: true,
    });
    const changed = await changeProject(db(), id, () => ({ display_name: 'Q', description: 'd' }));
    expect(changed).toMatchObject({ display_name: 'Q', description: 'd', config: { ...config, more: true } });
    expect(await changeProject(db(), id, () => ({}))).toEqual(changed);
    await expect(
      changeProject(db(), id, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await findProjectRow(db(), id))?.display_name).toBe('Q');
    expect(await listProjectIds(db())).toContain(id);
    expect(await deleteProjectRow(db(), id)).toBe(true);
    expect(await deleteProjectRow(db(), id)).toBe(false);
    expect(await changeProject(db(), id, () => ({ display_name: 'R' }))).toBeNull();
  });

  it('applies concurrent config changes one after the other', async () => {
    const id = await projectRow(db());
    await changeProjectConfig(db(), id, () => ({ n: 0 }));
    await Promise.all(
      Array.from({ length: 5 }, () =>
        changeProjectConfig(db(), id, (stored) => ({ n: (stored as { n: number }).n + 1 })),
      ),
    );
    expect((await findProjectRow(db(), id))?.config).toEqual({ n: 5 });
  });

  it('records project owners once; ownership goes with the project', async () => {
    const projectId = await projectRow(db());
    const internal = { displayName: 'Internal', description: null, createdAt: new Date(now), isProductionMode: false };
    await insertProject(db(), { ...internal, id: internalProjectId, config: {} }, { ifAbsent: true });
    const owner = await userRow(db(), internalProjectId, { signedUpAt: now });
    await insertProjectOwner(db(), projectId, owner.id, new Date(now));
    await insertProjectOwner(db(), projectId, owner.id, new Date(now));
    expect(await findOwnership(db(), projectId, owner.id.toUpperCase())).toEqual({ userExists: true, owns: true });
    expect(await findOwnership(db(), await projectRow(db()), owner.id)).toEqual({ userExists: true, owns: false });
    expect(await findOwnership(db(), projectId, randomUUID())).toEqual({ userExists: false, owns: false });
    expect(await countOwnedProjects(db(), owner.id)).toBe(1);
    expect((await listOwnedProjectRows(db(), owner.id, 10)).map((p) => p.id)).toEqual([projectId]);
    await deleteProjectRow(db(), projectId);
    expect(await countOwnedProjects(db(), owner.id)).toBe(0);
  });

  it('keeps API key sets by hash: unique, listed newest first, revoked once, valid until expiry', async () => {
    const projectId = await projectRow(db());
    const keys = (tag: string) => ({
      publishableClientKey: { hash: sha256Hex(`pck-${tag}`), lastFour: 'abcd' },
      secretServerKey: { hash: sha256Hex(`ssk-${tag}`), lastFour: 'efgh' },
      superSecretAdminKey: null,
    });
    const set = (tag: string, createdAt: number, expiresAt = now + 60_000) =>
      insertKeySet(db(), {
        id: randomUUID(),
        projectId,
        description: tag,
        createdAt: new Date(createdAt),
        expiresAt: new Date(expiresAt),
        keys: keys(tag),
      });
    const second = await set('second', now + 1);
    const first = await set('first', now);
    const expired = await set('expired', now - 2, now - 1);
    expect(first).toMatchObject({ super_secret_admin_key_hash: null, publishable_client_key_last_four: 'abcd' });
    await expect(set('first', now)).rejects.toSatisfy((e) => isUniqueViolation(e));
    expect((await listKeySets(db(), projectId)).map((s) => s.id)).toEqual([second.id, first.id, expired.id]);
    expect((await findKeySet(db(), projectId, first.id.toUpperCase()))?.description).toBe('first');
    expect(await findKeySet(db(), projectId, 'nope')).toBeNull();
    expect((await findValidKeyHashes(db(), projectId, 'secretServerKey', now)).sort()).toEqual(
      [sha256Hex('ssk-first'), sha256Hex('ssk-second')].sort(),
    );
    expect(await findValidKeyHashes(db(), projectId, 'superSecretAdminKey', now)).toEqual([]);

    const at = new Date(now + 5);
    expect((await updateKeySet(db(), projectId, first.id, { revokedAt: at }))?.manually_revoked_at).toEqual(at);
    expect(await updateKeySet(db(), projectId, 'nope', { revokedAt: at })).toBeNull();
    const later = await updateKeySet(db(), projectId, first.id, {
      description: 'renamed',
      revokedAt: new Date(now + 9),
    });
    expect(later?.description).toBe('renamed');
    expect(later?.manually_revoked_at?.getTime()).toBe(at.getTime());
    expect(await updateKeySet(db(), projectId, randomUUID(), { description: 'x' })).toBeNull();
    const unrevoked = await findUnrevokedKeys(db(), projectId);
    expect(new Set(unrevoked.map((key) => key.keySetId))).toEqual(new Set([second.id, expired.id]));
    expect(unrevoked.find((key) => key.keySetId === expired.id)?.expiresAtMillis).toBe(now - 1);
  });

  it('finds sessions by current or previous refresh token after a rotation; rotates once', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const { sessionId, refreshToken } = await createSession(db(), { projectId, userId: user.id, now });
    const session = (await findSession(db(), projectId, refreshToken, now))!;
    const next = sha256Hex('next');
    const from = sha256Hex(refreshToken);
    const rotations = await Promise.all([
      rotateSessionToken(db(), session, from, next, now + 1),
      rotateSessionToken(db(), session, from, sha256Hex('other'), now + 1),
    ]);
    expect(rotations.filter(Boolean)).toHaveLength(1);
    const found = await findSession(db(), projectId, refreshToken, now + 2);
    expect(found?.id).toBe(sessionId);
    expect(found?.previous_refresh_token_hash).toBe(from);
    expect(found?.refresh_token_rotated_at?.getTime()).toBe(now + 1);
  });

  it('lists a user’s live sessions most recently used first; deletes one, or all but one', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const open = (at: number, lifetimeMs?: number) =>
      createSession(db(), { projectId, userId: user.id, now: at, ...(lifetimeMs ? { lifetimeMs } : {}) });
    const older = await open(now);
    const newer = await open(now + 10);
    const expired = await open(now - 10, 5);
    const third = await open(now + 5);
    const listed = await listUserSessions(db(), projectId, user.id, now + 20);
    expect(listed.map((s) => s.id)).toEqual([newer.sessionId, third.sessionId, older.sessionId]);
    const locked = await inTransaction(db(), (trx) =>
      lockUserSession(trx, projectId, user.id, older.sessionId.toUpperCase(), now + 20),
    );
    expect(locked?.id).toBe(older.sessionId);
    expect(await deleteSessionById(db(), projectId, older.sessionId, randomUUID())).toBeNull();
    expect(await deleteSessionById(db(), projectId, older.sessionId, user.id)).toEqual({
      id: older.sessionId,
      user_id: user.id,
    });
    expect(await sessionExists(db(), older.sessionId)).toBe(false);
    expect((await deleteUserSessionsExcept(db(), projectId, user.id, newer.sessionId)).sort()).toEqual(
      [expired.sessionId, third.sessionId].sort(),
    );
    expect(await sessionExists(db(), newer.sessionId)).toBe(true);
    expect(await deleteUserSessionsExcept(db(), projectId, user.id, null)).toEqual([newer.sessionId]);
    expect(await rowsOf(db(), 'sessions', projectId)).toBe(0);
  });

  it('keeps one active signing key per project, its public JWK as JSON', async () => {
    const projectId = await projectRow(db());
    const publicJwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' };
    const key = (kid: string) => ({
      projectId,
      kid,
      publicJwk,
      sealedPrivateJwk: `sealed-${kid}`,
      createdAt: new Date(now),
    });
    await insertActiveKeyIfNone(db(), key('k1'));
    await insertActiveKeyIfNone(db(), key('k2'));
    expect(await findActiveKey(db(), projectId)).toEqual({ kid: 'k1', sealedPrivateJwk: 'sealed-k1' });
    expect(await findPublicKey(db(), 'k1')).toEqual({ projectId, publicJwk });
    expect(await findPublicKey(db(), 'k2')).toBeNull();
    expect(await listPublicKeys(db(), projectId)).toEqual([{ kid: 'k1', publicJwk }]);
    await updateSealedKey(db(), 'k1', 'resealed');
    expect((await listSealedKeys(db())).find((row) => row.kid === 'k1')?.private_jwk_encrypted).toBe('resealed');
  });

  it('saves an edited template once per type, its document as JSON; deleting it goes back to none', async () => {
    const projectId = await projectRow(db());
    const content = { type: 'doc', children: [{ text: 'Hi {{ name }}', bold: true }, null, 1.5] };
    const saved = await saveTemplate(db(), projectId, 'magic_link', { subject: 'S', content }, new Date(now));
    expect(saved).toEqual({ type: 'magic_link', subject: 'S', content, updatedAt: new Date(now) });
    await saveTemplate(db(), projectId, 'magic_link', { subject: 'S2', content: 'text' }, new Date(now + 1));
    expect(await findStoredTemplate(db(), projectId, 'magic_link')).toMatchObject({ subject: 'S2', content: 'text' });
    expect([...(await listStoredTemplates(db(), projectId)).keys()]).toEqual(['magic_link']);
    expect(await findStoredTemplate(db(), projectId, 'password_reset')).toBeUndefined();
    expect(await deleteTemplate(db(), projectId, 'magic_link')).toBe(true);
    expect(await deleteTemplate(db(), projectId, 'magic_link')).toBe(false);
    expect(await listStoredTemplates(db(), projectId)).toEqual(new Map());
  });

  it('queues mail sealed, claims each due mail for one worker, and records sent, failed and released', async () => {
    const projectId = await projectRow(db());
    const sealer = outboxSealer('m'.repeat(32));
    const queue = (to: string, at: number) =>
      enqueueMail(db(), sealer, {
        projectId,
        kind: 'test',
        to,
        subject: 'Code 123456',
        listedSubject: 'Code ******',
        html: '<p>123456</p>',
        text: '123456',
        now: at,
      });
    const first = await queue('One@Example.com', now);
    const second = await queue('two@example.com', now + 1);
    await queue('three@example.com', now + 60_000);
    expect(first).toMatchObject({ status: 'queued', subject: 'Code ******', attempts: 0, html: null });
    expect(first.sealed_content).not.toContain('123456');
    expect(openContent(sealer, first)).toEqual({ subject: 'Code 123456', html: '<p>123456</p>', text: '123456' });
    expect((await listMailboxMails(db(), { to: 'one@EXAMPLE.com', limit: 5 })).map((m) => m.id)).toEqual([first.id]);
    expect((await listProjectMails(db(), projectId, 2)).map((m) => m.recipient)).toEqual([
      'three@example.com',
      'two@example.com',
    ]);

    const options = { now: now + 10, leaseUntil: now + 30_000, limit: 10, maxAttempts: 3 };
    const claims = await Promise.all([claimDueMails(db(), options), claimDueMails(db(), options)]);
    const claimed = claims.flat().map((m) => m.id);
    expect(claimed.sort()).toEqual([first.id, second.id].sort());
    expect(claims.flat().every((m) => m.status === 'sending' && m.attempts === 1)).toBe(true);

    await markMailSent(db(), first.id, { now: now + 20, transport: 'smtp', keepBody: false });
    expect(await findMail(db(), first.id)).toMatchObject({ status: 'sent', transport: 'smtp', sealed_content: null });
    expect((await findMail(db(), first.id))?.sent_at?.getTime()).toBe(now + 20);
    await markMailFailed(db(), second.id, { error: 'refused', retryAt: now + 40_000 });
    expect(await findMail(db(), second.id)).toMatchObject({ status: 'queued', last_error: 'refused' });
    expect(await claimDueMails(db(), { ...options, now: now + 39_999 })).toEqual([]);
    const again = await claimDueMails(db(), { ...options, now: now + 40_000, limit: 1 });
    expect(again.map((m) => [m.id, m.attempts])).toEqual([[second.id, 2]]);
    await releaseMails(db(), [second.id], now + 40_001);
    expect(await findMail(db(), second.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await findMail(db(), 'not-a-uuid')).toBeNull();
  });

  it('fails a mail whose lease ran out after its last attempt; drops bodies and deletes finished mail by age', async () => {
    const projectId = await projectRow(db());
    const sealer = outboxSealer('m'.repeat(32));
    const at = old;
    const mail = await enqueueMail(db(), sealer, {
      projectId,
      kind: 'test',
      to: 'x@example.com',
      subject: 's',
      html: 'h',
      text: 't',
      now: at,
    });
    const options = { now: at, leaseUntil: at + 1000, limit: 50, maxAttempts: 1 };
    expect((await claimDueMails(db(), options)).map((m) => m.id)).toContain(mail.id);
    await claimDueMails(db(), { ...options, now: at + 1000 });
    expect(await findMail(db(), mail.id)).toMatchObject({
      status: 'failed',
      last_error: 'delivery was interrupted',
      sealed_content: null,
    });
    const kept = await enqueueMail(db(), sealer, {
      projectId,
      kind: 'test',
      to: 'y@example.com',
      subject: 's',
      html: 'h',
      text: 't',
      now: at,
    });
    await claimDueMails(db(), { ...options, now: at + 2000, maxAttempts: 5 });
    await markMailSent(db(), kept.id, { now: at + 2000, transport: 'dev', keepBody: true });
    expect(await dropMailBodiesBefore(db(), at + 1)).toBe(1);
    expect((await findMail(db(), kept.id))?.sealed_content).toBeNull();
    expect(await deleteFinishedMailsBefore(db(), at + 1)).toBe(2);
    expect(await findMail(db(), kept.id)).toBeNull();
  });

  it('pages audit events newest first by id with filters; their data as JSON, deleted by age', async () => {
    const projectId = await projectRow(db());
    const userId = randomUUID();
    const event = (type: string, at: number, data: Record<string, unknown> = {}) =>
      auditEventInsert(db(), {
        project_id: projectId,
        type,
        occurred_at: new Date(at),
        user_id: userId,
        actor_type: 'user',
        actor_id: userId,
        ip: '203.0.113.1',
        user_agent: null,
        data: data as never,
      });
    await writeTogether(db(), [event('a', old)]);
    for (let i = 0; i < 12; i++) await writeTogether(db(), [event(i % 2 ? 'b' : 'a', now + i, { i, list: [i] })]);
    const query = { projectId, userId: null, types: [], since: null, until: null, beforeId: null, limit: 5 };
    const page = await listAuditEvents(db(), query);
    expect(page.more).toBe(true);
    expect(page.rows.map((row) => row.data.i)).toEqual([11, 10, 9, 8, 7]);
    expect(page.rows[0]?.data).toEqual({ i: 11, list: [11] });
    expect(page.rows[0]?.occurred_at.getTime()).toBe(now + 11);
    const next = await listAuditEvents(db(), { ...query, beforeId: page.rows.at(-1)!.id });
    expect(next.rows.map((row) => row.data.i)).toEqual([6, 5, 4, 3, 2]);
    const filtered = await listAuditEvents(db(), {
      ...query,
      types: ['b'],
      since: new Date(now + 3),
      until: new Date(now + 9),
      limit: 10,
    });
    expect(filtered).toEqual({ rows: expect.any(Array), more: false });
    expect(filtered.rows.map((row) => row.data.i)).toEqual([7, 5, 3]);
    expect(await deleteAuditEventsBefore(db(), old + 1)).toBeGreaterThanOrEqual(1);
    expect((await listAuditEvents(db(), { ...query, limit: 100 })).rows).toHaveLength(12);
  });

  it('counts hits per key and window atomically, and deletes old windows', async () => {
    const key = `hits-${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 10 }, () => countHit(db(), key, now)));
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await countHit(db(), key, now + 60_000)).toBe(1);
    expect(await countHit(db(), key, old)).toBe(1);
    expect(await deleteCountersBefore(db(), old + 1)).toBeGreaterThanOrEqual(1);
    expect(await countHit(db(), key, old)).toBe(1);
  });

  it('counts attempts under a back-off, holds a waiting key back, takes an attempt back and forgets old counts', async () => {
    const key = `attempt-${randomUUID()}`;
    const rule = { key, free: 2, baseMs: 1000, maxMs: 60_000, resetAfterMs: 3600_000 };
    const [first] = await countAttempt(db(), [rule], now);
    expect(first).toEqual({ key, failures: null, last_failure_at: null, counted: true });
    expect((await countAttempt(db(), [rule], now + 1))[0]).toMatchObject({ failures: 1, counted: true });
    // Two attempts are free; then each waits 1 s, doubling, from the last one counted.
    const [held] = await countAttempt(db(), [rule], now + 2);
    expect(held).toMatchObject({ failures: 2, counted: false });
    expect(held?.last_failure_at?.getTime()).toBe(now + 1);
    expect((await countAttempt(db(), [rule], now + 1001))[0]).toMatchObject({ failures: 2, counted: true });
    expect((await countAttempt(db(), [rule], now + 3000))[0]).toMatchObject({ failures: 3, counted: false });
    // Taken back: the count and its last time are as they were before it.
    await uncountAttempt(db(), [{ key, forget: false, lastBefore: new Date(now + 1) }], now + 1001);
    const [after] = await countAttempt(db(), [rule], now + 1002);
    expect(after).toMatchObject({ failures: 2, counted: true });
    expect(after?.last_failure_at?.getTime()).toBe(now + 1);
    await uncountAttempt(db(), [{ key, forget: true, lastBefore: null }], now + 1002);
    expect((await countAttempt(db(), [rule], now + 1003))[0]).toMatchObject({ failures: null, counted: true });
    expect(await deleteFailuresBefore(db(), now + 2000)).toBeGreaterThanOrEqual(1);
    expect((await countAttempt(db(), [rule], now + 2001))[0]).toMatchObject({ failures: null });
  });

  it('counts attempts sent at once no further than the back-off allows', async () => {
    const rule = { key: `burst-${randomUUID()}`, free: 3, baseMs: 60_000, maxMs: 60_000, resetAfterMs: 3600_000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => countAttempt(db(), [rule], now)));
    expect(results.filter(([row]) => row?.counted)).toHaveLength(rule.free);
  });
});
