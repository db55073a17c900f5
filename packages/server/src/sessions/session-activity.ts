/**
 * A session's use: its user and the session itself marked active together,
 * in the order every change to a user and its sessions takes their rows.
 */
import { type Db, inTransaction } from '../storage/db.js';
import type { SessionRow } from '../storage/schema.js';
import { markUserActive } from '../users/user-store.js';
import { touchSessionRow } from './session-store.js';

/**
 * Marks the session and its user as active now, in one transaction that takes
 * the user's row first and the session's second: the order deleting a user
 * takes them (the user, then its sessions), so a refresh and a deletion wait
 * for each other instead of deadlocking. `also` runs last, in the same
 * transaction, while the user cannot be deleted (the activity record). False
 * when the user or the session went meanwhile.
 */
export async function touchSession(
  db: Db,
  session: SessionRow,
  now: number,
  also?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await markUserActive(trx, session.project_id, session.user_id, now))) return false;
    if (!(await touchSessionRow(trx, session.id, now))) return false;
    await also?.(trx);
    return true;
  });
}
