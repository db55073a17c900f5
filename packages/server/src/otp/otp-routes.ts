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
 * Enumeration: the send call answers the same for every address and mails a
 * code in every case, also when sign-up is disabled and nobody signs in with
 * the address. Only the person who reads that mailbox learns, at sign-in, that
 * sign-up is closed (SIGN_UP_NOT_ENABLED); refusing at the send call would
 * tell anybody which addresses have accounts in a closed project, where no
 * other route tells it (sign-up is refused before any lookup, sign-in gives
 * one error for both cases).
 *
 * The catalogue has no "magic link not enabled" code (the original backend
 * answers a plain 403); the closest known error is
 * OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED, "this sign-in method is not enabled",
 * sent with a message naming the magic link. A 400, not UNSUPPORTED_ERROR's 500:
 * it is the caller's mistake, not a fault of the service.
 *
 * Signing in by code proves the mailbox, so the address becomes verified and
 * the user's `otp_auth_enabled` is set. An address another account signs in
 * with without having proven it is settled first (`mailbox-proof.ts`): the
 * account becomes hers when the address is all there is to it, otherwise the
 * address is detached from it and she signs in to a new account of her own.
 * Stack's reference instead refuses to mail a code to such an address
 * (USER_EMAIL_ALREADY_EXISTS); that would tell anybody which addresses have
 * accounts and leave her locked out of her own address.
 *
 * A wrong typed code is recorded as `sign_in.failed` (`wrong_code`).
 */

import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode, mailCode } from '../codes/code-mail.js';
import { codeErrors, useCode, verificationCode } from '../codes/codes.js';
import { callbackUrl, email } from '../common/schemas.js';
import { settleProvenAddress } from '../contact-channels/mailbox-proof.js';
import { act, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { secondFactorErrors } from '../mfa/mfa-attempts.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { limitMailSend } from '../rate-limit/rate-limit.js';
import { completeSignIn, refuseSignIn, signInAnswer } from '../sessions/complete-sign-in.js';
import { authEmailIndex, isUniqueViolation } from '../storage/schema.js';
import { findUserByAuthEmail, updateUser } from '../users/user-store.js';
import { addUser } from '../users/users-actions.js';

function requireMagicLink(project: ProjectRecord): void {
  if (!project.config.magic_link_enabled) {
    throw new KnownError(
      'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
      undefined,
      'Signing in with an e-mailed code (magic link) is not enabled for this project.',
    );
  }
}

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
  errors: ['OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 'REDIRECT_URL_NOT_WHITELISTED'],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requireMagicLink(project);
    if (!isTrustedUrl(body.callback_url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    const now = deps.clock.now();
    await limitMailSend(deps.counters, project, { kind: 'magic_link', email: body.email, ip: client.ip, now });
    const user = await findUserByAuthEmail(deps.db, project.id, body.email);
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
  errors: ['OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 'SIGN_UP_NOT_ENABLED', ...codeErrors, ...secondFactorErrors],
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
          const source = { auth, client, deps };
          const existing = await settleProvenAddress(trx, {
            projectId: project.id,
            address,
            now,
            source,
            codeId: row.id,
          });
          // A refused sign-up rolls back: the code and any claim on the address stay as they were.
          if (!existing && !project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
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
