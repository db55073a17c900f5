/**
 * The audit log: what happened to a project's accounts and settings, who did
 * it, and from where. The events and what their `data` holds are rows of the
 * event catalogue (`events/catalogue.ts`); an action records them with
 * `record` (`events/recorder.ts`), which writes the row in the transaction of
 * the change it describes, so a change that rolls back leaves no event and an
 * event never describes something that did not happen.
 *
 * Nothing secret goes in: no password, code, token or key, and no e-mail
 * address typed at a failed sign-in (people type passwords there). `data`
 * holds only the small, named facts its catalogue row allows.
 */
import type { ActorType } from '../events/recorder.js';
import type { ClientInfo, RequestAuth } from '../http/env.js';

/**
 * Who acts and from where, for code that builds an action's context from a
 * route's input (`contact-channels/mailbox-proof.ts`): the parts that say it.
 * Routes without project authentication (the OAuth callback) name the project
 * and have no actor but the user the event is about.
 */
export interface AuditSource {
  auth: RequestAuth | null;
  userId?: string | null;
  client: ClientInfo;
  deps: { clock: { now(): number } };
  /** The project whose log gets the event, when not the caller's (default: `auth`'s project). */
  projectId?: string;
  /** Who acted, when no request says it. */
  actor?: { type: ActorType; id: string | null };
}
