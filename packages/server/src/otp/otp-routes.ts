/**
 * Magic link / one-time code sign-in (wire-protocol §14.1, §12, §17.11).
 *
 * `send-sign-in-code` mails a `magic_link` code: the link `<callback>?code=<code>`
 * and the code's first six characters, upper-cased, as the OTP a person types;
 * the caller gets the other 39 characters (the nonce). `sign-in` takes the 45
 * characters back (OTP + nonce, any case) and signs in whoever signs in with
 * that e-mail, or creates them (the e-mail their verified primary sign-in
 * address) when sign-up is enabled.
 *
 * Who a code may sign in, as the original backend decides it, at the send
 * call and again at sign-in (the address may have changed in between):
 * - the user whose verified sign-in address it is: their codes are enabled
 *   (`otp_auth_enabled`) as they sign in, if they were not;
 * - nobody, when a user signs in with the address without having proven it
 *   (a password sign-up not verified yet): USER_EMAIL_ALREADY_EXISTS (409), and
 *   no mail. An address nobody proved never hands over an account, and the
 *   code cannot make a second account on an address someone signs in with;
 * - a new user, when nobody signs in with the address and sign-up is enabled
 *   (SIGN_UP_NOT_ENABLED otherwise, no mail).
 * Like the original backend, the send call's answer tells whether an address
 * has an account in a project closed to sign-up, or an unproven one; each ask
 * counts against the mail limits, which bound how fast anybody can ask.
 *
 * With magic links disabled both routes answer a plain 403 with the original
 * backend's text.
 *
 * A wrong typed code is recorded as `sign_in.failed` (`wrong_code`).
 */

import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode, mailCode } from '../codes/code-mail.js';
import { codeErrors, useCode, verificationCode } from '../codes/codes.js';
import { callbackUrl, email } from '../common/schemas.js';
import { findAuthChannel } from '../contact-channels/contact-channel-store.js';
import { act, requestContext } from '../events/recorder.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import { secondFactorErrors } from '../mfa/mfa-attempts.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { limitMailSend } from '../rate-limit/rate-limit.js';
import { completeSignIn, refuseSignIn, signInAnswer } from '../sessions/complete-sign-in.js';
import type { Db } from '../storage/db.js';
import { authEmailIndex, isUniqueViolation, type UserRow } from '../storage/schema.js';
import { findUser, updateUser } from '../users/user-store.js';
import { addUser } from '../users/users-actions.js';

/** Magic links off: a plain 403 with the original backend's text (the catalogue has no code for it). */
function requireMagicLink(project: ProjectRecord): void {
  if (!project.config.magic_link_enabled) {
    throw new StatusRefusal(403, 'Magic link is not enabled for this project');
  }
}

/**
 * The user a code for `address` signs in: the owner of its verified sign-in
 * channel, or null when nobody signs in with it (a new user, when sign-up is
 * enabled: SIGN_UP_NOT_ENABLED otherwise). USER_EMAIL_ALREADY_EXISTS when a
 * user signs in with it without having proven it.
 */
async function codeOwner(db: Db, project: ProjectRecord, address: string): Promise<UserRow | null> {
  const channel = await findAuthChannel(db, project.id, address);
  const owner = channel && (await findUser(db, project.id, channel.user_id));
  if (!channel || !owner) {
    if (!project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
    return null;
  }
  if (!channel.is_verified) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
  return owner;
}

const ownerErrors = ['SIGN_UP_NOT_ENABLED', 'USER_EMAIL_ALREADY_EXISTS'] as const;

const sendSignInCode = defineRoute({
  method: 'POST',
  path: '/auth/otp/send-sign-in-code',
  tag: 'otp',
  summary:
    'Mails a sign-in link (`<callback_url>?code=<code>`) and a six-character code to the e-mail; answers the nonce that completes the typed code.',
  access: 'client',
  body: z.strictObject({ email, callback_url: callbackUrl }),
  answer: z
    .object({
      nonce: z.string().meta({ description: 'The last 39 characters of the code; the mail shows the first 6.' }),
    })
    .meta({ id: 'SignInCodeSent' }),
  errors: [...ownerErrors, 'REDIRECT_URL_NOT_WHITELISTED'],
  refusals: [403],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requireMagicLink(project);
    const now = deps.clock.now();
    // Counted before the address is looked at: the refusals below tell whether it has an account.
    await limitMailSend(deps.counters, project, { kind: 'magic_link', email: body.email, ip: client.ip, now });
    const user = await codeOwner(deps.db, project, body.email);
    if (!isTrustedUrl(body.callback_url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    // A code sent is no event: an action that records nothing.
    const issued = await act(requestContext(input), (tx) =>
      mailCode(tx.db, {
        project,
        type: 'magic_link',
        to: body.email,
        data: { email: body.email, user_id: user?.id ?? null },
        callbackUrl: body.callback_url,
        now,
        variables: (link, code) => ({ userDisplayName: user?.display_name ?? null, magicLink: link, otp: code.otp }),
      }),
    );
    return { nonce: issued.nonce };
  },
});

const magicLinkData = z.object({ email: z.string() });
const codeUser = z.object({ user_id: z.uuid() });

const signInWithCode = defineRoute({
  method: 'POST',
  path: '/auth/otp/sign-in',
  tag: 'otp',
  summary:
    'Signs in with a magic-link code (the 45 characters of the link, or the typed six-character code followed by the nonce), creating the user when sign-up is enabled.',
  access: 'client',
  body: z.strictObject({ code: verificationCode }),
  answer: signInAnswer,
  errors: [...ownerErrors, ...codeErrors, ...secondFactorErrors],
  refusals: [403],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requireMagicLink(project);
    const row = await checkClientCode(
      deps,
      project,
      {
        purpose: 'magic_link',
        code: body.code,
        now: deps.clock.now(),
        clientIp: client.ip,
        onWrongGuess: (guessed) =>
          refuseSignIn(input, {
            userId: codeUser.safeParse(guessed.data).data?.user_id ?? null,
            method: 'otp',
            reason: 'wrong_code',
          }),
      },
      requestContext(input),
    );
    const data = magicLinkData.safeParse(row.data);
    if (!data.success) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
    const address = data.data.email;
    const signIn = () =>
      completeSignIn(input, {
        method: 'otp',
        user: async (trx) => {
          const now = deps.clock.now();
          // Decided again: the address may have changed hands since the code was mailed.
          // A refusal rolls back: the code stays as it was.
          const existing = await codeOwner(trx, project, address);
          await useCode(trx, row, now);
          if (existing && !existing.otp_auth_enabled) {
            await updateUser(trx, project.id, existing.id, { otp_auth_enabled: true });
          }
          const user =
            existing ??
            (await addUser(trx, {
              projectId: project.id,
              primaryEmail: address,
              primaryEmailVerified: true,
              primaryEmailAuthEnabled: true,
              otpAuthEnabled: true,
              now,
              projectConfig: project.config,
            }));
          return { userId: user.id, isNewUser: !existing };
        },
        answer: 'sign-in-or-up',
      });
    try {
      return await signIn();
    } catch (error) {
      // Someone signed up with the address between the lookup and the insert: they are the user now.
      if (!isUniqueViolation(error, authEmailIndex)) throw error;
      return await signIn();
    }
  },
});

export const otpRoutes: Route[] = [sendSignInCode, signInWithCode];
