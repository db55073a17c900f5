/** Advisory locks that serialize one-time work across instances sharing a database. */
import { sql } from 'kysely';
import type { Db } from './db.js';

/** Advisory-lock key (with the schema) serializing bootstraps of one database. */
const bootstrapLock = 0x4c4b4253; // "LKBS"

/** Holds the bootstrap lock of `schema` until the transaction `trx` ends. */
export async function lockBootstrap(trx: Db, schema: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${bootstrapLock}, hashtext(${schema}))`.execute(trx);
}

/** Advisory-lock key serializing the connection of one provider account. */
const oauthAccountLock = 0x4c4b4f41; // "LKOA"

/**
 * Holds the lock of one provider account until the transaction ends, so two
 * callbacks for the same new account cannot both create a user.
 */
export async function lockOAuthAccount(trx: Db, projectId: string, providerId: string, accountId: string) {
  await sql`select pg_advisory_xact_lock(${oauthAccountLock}, hashtext(${`${projectId}:${providerId}:${accountId}`}))`.execute(
    trx,
  );
}

/** Advisory-lock key serializing the project creations of one dashboard owner. */
const projectOwnerLock = 0x4c4b504f; // "LKPO"

/** Holds the lock of one owner's projects until the transaction ends, so concurrent creations cannot pass the cap together. */
export async function lockProjectOwner(trx: Db, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${projectOwnerLock}, hashtext(${userId}))`.execute(trx);
}

/** Advisory-lock key serializing the webhook endpoint creations of one project. */
const webhookEndpointsLock = 0x4c4b5745; // "LKWE"

/** Holds the lock of one project's webhook endpoints until the transaction ends, so concurrent creations cannot pass the cap together. */
export async function lockWebhookEndpoints(trx: Db, projectId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${webhookEndpointsLock}, hashtext(${projectId}))`.execute(trx);
}
