/**
 * Password reset, change and set (wire-protocol §14.1, §12).
 *
 * - `send-reset-code` answers the same body whether or not anybody signs in
 *   with the e-mail, after the same work: for an unknown address it issues the
 *   code and queues the mail exactly as for a known one, in a transaction it
 *   then rolls back. A commit still costs more than a rollback (and wakes the
 *   outbox worker), about 8 ms here, so every answer also waits until
 *   `resetAnswerFloorMs` after the request began. A user without a password gets the mail too: proving the
 *   mailbox is how an OAuth or magic-link user adds a password (and no answer
 *   says whether an account has one).
 * - `reset` proves the mailbox: the address the code went to becomes verified,
 *   and every session of the user ends (whoever knew the old password is out).
 *   An address the account never proved is settled first (`mailbox-proof.ts`):
 *   when the account has other ways in, the address is detached from it and
 *   the new password goes to a new account of the prover's with the address
 *   verified (SIGN_UP_NOT_ENABLED when the project takes no sign-ups), never
 *   to the account someone else can enter.
 * - A new password (reset, change, set) ends the user's other outstanding
 *   reset and sign-in codes: a link mailed before must not work after it.
 * - `update` needs the old password and ends the user's other sessions. An
 *   access token does not name its session, so the session kept is the one of
 *   the refresh token the SDK sends with every call (`x-stack-refresh-token`);
 *   without it, no session can be told to be the caller's and all end (the
 *   caller's access token keeps working until it expires).
 * - `set` is for a user without a password only; one who has a password is
 *   refused as the original backend does, with a plain 400 `User already has
 *   a password set.` (wire-protocol §4.2; use `update`).
 *
 * Passwords are hashed before any transaction; codes are checked on the
 * database (a wrong guess counts) and used in the transaction that acts on them.
 */

import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode, checkCodeRoute } from '../codes/code-mail.js';
import { codeErrors, verificationCode } from '../codes/codes.js';
import { callbackUrl, email, successAnswer } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { limitMailSend } from '../rate-limit/rate-limit.js';
import { findSession } from '../sessions/session-store.js';
import { findUser, findUserByAuthEmail } from '../users/user-store.js';
import {
  changePassword,
  mailResetCode,
  requireNoPassword,
  resetSubject,
  resetPassword as resetWithCode,
  setPassword as setFirstPassword,
} from './password-reset-actions.js';
import { checkPasswordRequirements } from './passwords.js';

/** The body the original backend always answers to a reset request (wire-protocol §14.1). */
const maybeSentAnswer = z
  .object({ success: z.literal('maybe, only if user with e-mail exists') })
  .meta({ id: 'ResetCodeMaybeSent' });

/**
 * The least time a `send-reset-code` answer takes, so that a known and an
 * unknown e-mail answer alike (their work differs by a commit, a few ms).
 */
export const resetAnswerFloorMs = 100;

/** Waits until `floorMs` after `started` (a `performance.now()` reading). */
async function padTo(started: number, floorMs: number): Promise<void> {
  const left = started + floorMs - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

function requirePasswordAuth(project: ProjectRecord): void {
  if (!project.config.credential_enabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
}

const sendResetCode = defineRoute({
  method: 'POST',
  path: '/auth/password/send-reset-code',
  tag: 'password',
  summary:
    'Mails a password-reset link (`<callback_url>?code=<code>`) to the user who signs in with the e-mail; the same answer when there is none.',
  access: 'client',
  body: z.strictObject({ email, callback_url: callbackUrl }),
  answer: maybeSentAnswer,
  errors: ['PASSWORD_AUTHENTICATION_NOT_ENABLED', 'REDIRECT_URL_NOT_WHITELISTED'],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requirePasswordAuth(project);
    if (!isTrustedUrl(body.callback_url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    const started = performance.now();
    const now = deps.clock.now();
    await limitMailSend(deps.counters, project, {
      kind: 'password_reset',
      email: body.email,
      ip: client.ip,
      now,
    });
    const user = await findUserByAuthEmail(deps.db, project.id, body.email);
    await mailResetCode(requestContext(input), { project, user, email: body.email, callbackUrl: body.callback_url });
    await padTo(started, resetAnswerFloorMs);
    return { success: 'maybe, only if user with e-mail exists' as const };
  },
});

const checkResetCode = checkCodeRoute({
  path: '/auth/password/reset/check-code',
  tag: 'password',
  summary: 'Says whether a password-reset code may be used, without using it.',
  purpose: 'password_reset',
  subject: resetSubject,
});

const resetPassword = defineRoute({
  method: 'POST',
  path: '/auth/password/reset',
  tag: 'password',
  summary:
    "Sets a new password with a reset code, signs the user out everywhere, and marks the code's address verified.",
  access: 'client',
  body: z.strictObject({ code: verificationCode, password: z.string() }),
  answer: successAnswer,
  errors: [
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'PASSWORD_TOO_SHORT',
    'PASSWORD_TOO_LONG',
    'SIGN_UP_NOT_ENABLED',
    ...codeErrors,
  ],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requirePasswordAuth(project);
    checkPasswordRequirements(body.password);
    const ctx = requestContext(input);
    const lookup = { purpose: 'password_reset' as const, code: body.code, now: deps.clock.now(), clientIp: client.ip };
    const row = await checkClientCode(deps, project, lookup, ctx);
    await resetSubject(deps.db, project.id, row);
    const passwordHash = await deps.passwords.hash(body.password);
    await resetWithCode(ctx, project, row, passwordHash);
    return { success: true as const };
  },
});

const updatePassword = defineRoute({
  method: 'POST',
  path: '/auth/password/update',
  tag: 'password',
  summary:
    "Changes the signed-in user's password (the old one required) and signs out their other sessions; the session of `x-stack-refresh-token` is kept.",
  access: 'client',
  user: true,
  // The original backend's request schema requires the user: signed out is its SCHEMA_ERROR.
  signedOutError: 'SCHEMA_ERROR',
  body: z.strictObject({ old_password: z.string(), new_password: z.string() }),
  answer: successAnswer,
  errors: [
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'PASSWORD_TOO_SHORT',
    'PASSWORD_TOO_LONG',
    'USER_DOES_NOT_HAVE_PASSWORD',
    'PASSWORD_CONFIRMATION_MISMATCH',
  ],
  handler: async (input) => {
    const { auth, userId, body, refreshToken, deps } = input;
    const { project } = auth;
    requirePasswordAuth(project);
    checkPasswordRequirements(body.new_password);
    const user = await findUser(deps.db, project.id, userId);
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    if (user.password_hash === null) throw new KnownError('USER_DOES_NOT_HAVE_PASSWORD');
    if (!(await deps.passwords.verify(user.password_hash, body.old_password))) {
      throw new KnownError('PASSWORD_CONFIRMATION_MISMATCH');
    }
    const passwordHash = await deps.passwords.hash(body.new_password);
    const now = deps.clock.now();
    const session = refreshToken ? await findSession(deps.db, project.id, refreshToken, now) : null;
    const keep = session && session.user_id === user.id ? session.id : null;
    await changePassword(requestContext(input), passwordHash, keep);
    return { success: true as const };
  },
});

const setPassword = defineRoute({
  method: 'POST',
  path: '/auth/password/set',
  tag: 'password',
  summary:
    'Gives the signed-in user a password when they have none (a user with one gets a plain 400: change it with the old one).',
  access: 'client',
  user: true,
  // The original backend's request schema requires the user: signed out is its SCHEMA_ERROR.
  signedOutError: 'SCHEMA_ERROR',
  body: z.strictObject({ password: z.string() }),
  answer: successAnswer,
  errors: [
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'PASSWORD_TOO_SHORT',
    'PASSWORD_TOO_LONG',
  ],
  refusals: [400],
  handler: async (input) => {
    const { auth, userId, body, deps } = input;
    requirePasswordAuth(auth.project);
    checkPasswordRequirements(body.password);
    await requireNoPassword(deps.db, auth.project.id, userId);
    const passwordHash = await deps.passwords.hash(body.password);
    await setFirstPassword(requestContext(input), passwordHash);
    return { success: true as const };
  },
});

export const passwordAccountRoutes: Route[] = [
  sendResetCode,
  checkResetCode,
  resetPassword,
  updatePassword,
  setPassword,
];
