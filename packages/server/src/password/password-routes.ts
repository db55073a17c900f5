/**
 * Password sign-up and sign-in (wire-protocol §14.1, §5.4). The password is
 * hashed or verified before any transaction opens. A sign-up with a
 * `verification_callback_url` queues the verification mail of the new
 * primary e-mail in the transaction that creates the user. Unknown e-mail and wrong
 * password give the same error after the same amount of hashing work.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { callbackUrl, email } from '../common/schemas.js';
import { findPrimaryChannel } from '../contact-channels/contact-channel-store.js';
import { queueVerificationMail } from '../contact-channels/verification.js';
import { act, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { secondFactorErrors } from '../mfa/mfa-attempts.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { reserveAttempt, signInKeys } from '../rate-limit/attempt-limits.js';
import { limitSignUps } from '../rate-limit/rate-limit.js';
import { completeSignIn, refuseSignIn, signInAnswer } from '../sessions/complete-sign-in.js';
import { authEmailIndex, isUniqueViolation } from '../storage/schema.js';
import { findUserByAuthEmail, updateUser } from '../users/user-store.js';
import { addUser } from '../users/users-actions.js';
import { checkPasswordRequirements, needsRehash } from './passwords.js';

const signUp = defineRoute({
  method: 'POST',
  path: '/auth/password/sign-up',
  tag: 'password',
  summary: 'Creates a user with an e-mail and a password, and signs them in.',
  access: 'client',
  body: z.strictObject({ email, password: z.string(), verification_callback_url: callbackUrl.optional() }),
  answer: signInAnswer,
  errors: [
    'SIGN_UP_NOT_ENABLED',
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'REDIRECT_URL_NOT_WHITELISTED',
    'PASSWORD_TOO_SHORT',
    'PASSWORD_TOO_LONG',
    'USER_EMAIL_ALREADY_EXISTS',
    ...secondFactorErrors,
  ],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    if (!project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
    if (!project.config.credential_enabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const callback = body.verification_callback_url;
    if (callback !== undefined && !isTrustedUrl(callback, project.config)) {
      throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    }
    checkPasswordRequirements(body.password);
    // Counted before the hash, refused ones too: creating accounts in bulk is what it stops.
    if (deps.attemptLimits) await limitSignUps(deps.counters, project, client.ip, deps.clock.now());
    if (await findUserByAuthEmail(deps.db, project.id, body.email)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
    const passwordHash = await deps.passwords.hash(body.password);
    const now = deps.clock.now();
    try {
      return await completeSignIn(input, {
        method: 'password',
        user: async (trx) => {
          const user = await addUser(trx, {
            projectId: project.id,
            primaryEmail: body.email,
            primaryEmailAuthEnabled: true,
            passwordHash,
            now,
            projectConfig: project.config,
          });
          if (callback !== undefined) {
            // The verification mail commits with the user it was sent to, or neither does.
            const channel = await findPrimaryChannel(trx, project.id, user.id);
            if (channel)
              await queueVerificationMail(trx, { project, channel, userDisplayName: null, callbackUrl: callback, now });
          }
          return { userId: user.id, isNewUser: true };
        },
        answer: 'sign-in',
      });
    } catch (error) {
      if (isUniqueViolation(error, authEmailIndex)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
      throw error;
    }
  },
});

const signIn = defineRoute({
  method: 'POST',
  path: '/auth/password/sign-in',
  tag: 'password',
  summary: 'Signs in with an e-mail and a password.',
  access: 'client',
  body: z.strictObject({ email, password: z.string() }),
  answer: signInAnswer,
  errors: ['PASSWORD_AUTHENTICATION_NOT_ENABLED', 'EMAIL_PASSWORD_MISMATCH', ...secondFactorErrors],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    if (!project.config.credential_enabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    // Counted as a failure before the lookup and the hash, atomically; an account or client in back-off costs one
    // write that changes nothing. A success takes it back.
    const attempt = deps.attemptLimits
      ? await reserveAttempt(deps.counters, signInKeys(project, body.email, client.ip), deps.clock.now())
      : null;
    try {
      const user = await findUserByAuthEmail(deps.db, project.id, body.email);
      // A guess (its account or client failed lately) waits behind clean sign-ins for a hashing slot.
      const matches = await deps.passwords.verify(user?.password_hash ?? null, body.password, {
        suspect: attempt?.suspect,
      });
      if (!user || !matches) {
        const reason = !user ? 'unknown_account' : user.password_hash === null ? 'no_password' : 'wrong_password';
        // Not the typed address: people type passwords there. An unknown account has no user to name.
        await refuseSignIn(input, { userId: user?.id ?? null, method: 'password', reason });
        throw new KnownError('EMAIL_PASSWORD_MISMATCH');
      }
      // An imported (bcrypt) or older hash becomes argon2id of today's parameters, hashed before the transaction.
      const upgraded = needsRehash(user.password_hash!) ? await deps.passwords.hash(body.password) : null;
      // The upgrade stands alone: a hash of the same password, it is right whatever follows.
      // It is no event of the user's: an action that records nothing.
      if (upgraded) {
        await act(requestContext(input), (tx) => updateUser(tx.db, project.id, user.id, { password_hash: upgraded }));
      }
      // The attempt is taken back in the session's statement (counts in the database), or beside it (Redis).
      const release = attempt?.succeeding();
      const [answer] = await Promise.all([
        completeSignIn(input, {
          method: 'password',
          user: { userId: user.id, isNewUser: false },
          also: release?.writes ?? [],
          answer: 'sign-in',
        }),
        release?.done,
      ]);
      return answer;
    } finally {
      // However the attempt ended short of a success (a wrong password, a failing store), it stays counted.
      attempt?.failed();
    }
  },
});

export const passwordRoutes: Route[] = [signUp, signIn];
