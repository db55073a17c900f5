/**
 * The new-device alert (`new_device_alert_enabled`, an extension): when a
 * person's account signs in from a browser it has not used, its owner gets a
 * mail (template `new_device_sign_in`) naming the browser and the time, with a
 * link to the Sessions section of the app's account settings, where they can
 * end the session. `complete-sign-in.ts` asks for it as it opens a session.
 *
 * "A browser it has not used" is judged by the user agent the request carried
 * (the SDK's calls cannot carry a device cookie to another origin, and the
 * service fingerprints nothing): the browser is known when one of the
 * account's current sessions was opened from it, or when the audit log (400
 * days) holds an earlier sign-in or sign-up of the account from it. So a
 * reload, a second tab or a sign-in again after signing out sends nothing,
 * while another browser, another device, or an update of the browser does. No
 * alert is sent for an account's first sign-in (a sign-up, or an account with
 * no sign-in on record: imported, or created by server code), for a request
 * without a user agent, nor for sessions server code opens; and the mail goes
 * only to a verified primary e-mail address.
 *
 * The mail is queued in the outbox in the sign-in's transaction: it is sent
 * after the session commits, never while the sign-in waits.
 */
import { defaultHandlerPath } from '@latchkey/protocol';
import { signInsOnRecord } from '../audit/audit-store.js';
import { deviceName } from '../common/device.js';
import { queueTemplatedMail } from '../mail/queue-mail.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import type { Db } from '../storage/db.js';
import { findUser } from '../users/user-store.js';
import { sessionsFromAgent } from './session-store.js';

/** The sign-in a session is opened for, as the alert needs it. */
export interface AlertedSignIn {
  project: ProjectRecord;
  userId: string;
  /** The request's user agent (null: none sent). */
  userAgent: string | null;
  /** Where the request came from, if it said (`Origin`): the app whose account settings the mail links to. */
  origin: string | null;
  /** Signed in through an OAuth provider: its callback recorded this very sign-in already. */
  oauth: boolean;
  now: number;
}

/**
 * How long before an OAuth sign-in's session its provider callback may have
 * recorded it (the authorization code's lifetime): that record is of this
 * sign-in, not of an earlier one.
 */
const oauthFlowMs = 10 * 60_000;

/**
 * Queues the new-device alert for a sign-in, in its transaction `db`, when the
 * project asks for it and the browser is new to the account. Call it before
 * the session is written (the new session must not count as the browser's).
 *
 * @example
 * await queueNewDeviceAlert(tx.db, { project, userId, userAgent, origin, oauth: false, now });
 */
export async function queueNewDeviceAlert(db: Db, signIn: AlertedSignIn): Promise<boolean> {
  const { project, userId, userAgent, now } = signIn;
  if (!project.config.new_device_alert_enabled || !userAgent) return false;
  const link = sessionsLink(project, signIn.origin);
  if (link === null) return false;
  if (!(await isNewBrowser(db, signIn, userAgent))) return false;
  const user = await findUser(db, project.id, userId);
  if (!user?.primary_email || !user.primary_email_verified) return false;
  await queueTemplatedMail(db, {
    project,
    type: 'new_device_sign_in',
    to: user.primary_email,
    now,
    variables: {
      userDisplayName: user.display_name,
      browser: deviceName(userAgent),
      signInTime: `${new Date(now).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      sessionsLink: link,
    },
  });
  return true;
}

/**
 * Whether the account has signed in before, and never from `userAgent`: no
 * current session of it was opened from it, and no sign-in or sign-up of it
 * on record was made from it.
 */
async function isNewBrowser(db: Db, signIn: AlertedSignIn, userAgent: string): Promise<boolean> {
  const { project, userId, now } = signIn;
  const query = { projectId: project.id, userId, userAgent };
  const sessions = await sessionsFromAgent(db, { ...query, now });
  if (sessions.fromAgent) return false;
  // An OAuth sign-in's own record (its provider's callback, moments ago) is not an earlier sign-in.
  const signIns = await signInsOnRecord(db, { ...query, before: signIn.oauth ? now - oauthFlowMs : now + 1 });
  return (sessions.any || signIns.any) && !signIns.fromAgent;
}

/**
 * `<app><handler path>/account-settings#sessions`: on the origin the sign-in
 * came from when the project trusts it, else on its first trusted domain;
 * null when there is neither (no mail names a page the project does not trust).
 */
function sessionsLink(project: ProjectRecord, origin: string | null): string | null {
  const { domains } = project.config;
  const from = origin && isTrustedUrl(origin, project.config) ? new URL(origin).origin : null;
  const domain = domains.find((entry) => from !== null && sameOrigin(entry.domain, from)) ?? domains[0];
  const base = from ?? (domain ? new URL(domain.domain).origin : null);
  if (base === null) return null;
  const handler = (domain && sameOrigin(domain.domain, base) ? domain.handler_path : defaultHandlerPath).replace(
    /\/+$/,
    '',
  );
  return `${base}${handler}/account-settings#sessions`;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
