/**
 * A user named by an administrator as an id or as an e-mail address: an
 * address is looked up with the users search (`serverUsersQuery({ query })`)
 * and must match a primary e-mail exactly; anything else is taken as an id,
 * which the service checks when it is used.
 */
import { type AdminApp, type ServerUser, serverUsersQuery } from '@latchkey/js/admin';

export const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+$/.test(text.trim());

/** The id of the user `text` names; `null` when it is an address no user has. */
export async function userIdOf(adminApp: AdminApp, text: string): Promise<string | null> {
  const value = text.trim();
  if (!looksLikeEmail(value)) return value;
  const page = await adminApp.load(serverUsersQuery({ query: value, limit: 20 }));
  const wanted = value.toLowerCase();
  return page.items.find((user) => user.primaryEmail?.toLowerCase() === wanted)?.id ?? null;
}

/** How a user is named in lists: their display name, else their e-mail, else their id. */
export const userLabel = (user: Pick<ServerUser, 'id' | 'displayName' | 'primaryEmail'>) =>
  user.displayName ?? user.primaryEmail ?? user.id;
