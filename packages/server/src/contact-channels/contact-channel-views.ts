/** The contact channel's wire view (wire-protocol §15.5), the same for every caller. */
import { z } from 'zod';
import type { ContactChannelRow } from '../storage/schema.js';

/** Whether a channel shows as a sign-in channel: a sign-in use asked for and waiting for verification shows as asked. */
export function shownUsedForAuth(row: ContactChannelRow): boolean {
  return row.used_for_auth || row.auth_pending;
}

/**
 * A contact channel on the wire (wire-protocol §15.5).
 *
 * @example
 * contactChannelSchema.parse(answer.body); // { user_id, id, value, type: 'email', used_for_auth, is_verified, is_primary }
 */
export const contactChannelSchema = z
  .object({
    user_id: z.uuid(),
    id: z.uuid(),
    value: z.string(),
    type: z.literal('email'),
    used_for_auth: z.boolean(),
    is_verified: z.boolean(),
    is_primary: z.boolean(),
  })
  .strict()
  .meta({ id: 'ContactChannel' });

/**
 * The wire form of a stored channel.
 *
 * @example
 * return { items: rows.map(contactChannelView), is_paginated: false as const };
 */
export function contactChannelView(row: ContactChannelRow): z.infer<typeof contactChannelSchema> {
  return {
    user_id: row.user_id,
    id: row.id,
    value: row.value,
    type: 'email',
    used_for_auth: shownUsedForAuth(row),
    is_verified: row.is_verified,
    is_primary: row.is_primary,
  };
}
