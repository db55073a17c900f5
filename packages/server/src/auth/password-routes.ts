/**
 * Password sign-up and sign-in (wire-protocol §14.1, §5.4). The password is
 * hashed or verified before any transaction opens. Unknown e-mail and wrong
 * password give the same error after the same amount of hashing work.
 */
import { constants, KnownError, type SignInResponseWire } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { isUniqueViolation } from '../storage/schema.js';
import { findUserByAuthEmail, insertPasswordUser } from '../users/users.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { requireAccess } from './request-auth.js';
import { createSession } from './sessions.js';

const email = z.email().max(254);

const signUpBody = z.strictObject({
  email,
  password: z.string(),
  verification_callback_url: z.url().max(2048).optional(),
});

const signInBody = z.strictObject({ email, password: z.string() });

/** PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, counted in Unicode code points. */
export function checkPasswordRequirements(password: string): void {
  const length = [...password].length;
  if (length < constants.passwordMinLength) {
    throw new KnownError('PASSWORD_TOO_SHORT', { min_length: constants.passwordMinLength });
  }
  if (length > constants.passwordMaxLength) {
    throw new KnownError('PASSWORD_TOO_LONG', { maxLength: constants.passwordMaxLength });
  }
}

export function registerPasswordRoutes(api: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps.storage;

  api.post('/auth/password/sign-up', requireAccess(deps, 'client'), async (c) => {
    const body = await readJson(c.req.raw, signUpBody, deps.bodyLimitBytes);
    const { project } = c.get('auth');
    if (!project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
    if (!project.config.credential_enabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const callbackUrl = body.verification_callback_url;
    if (callbackUrl !== undefined && !isTrustedUrl(callbackUrl, project.config)) {
      throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    }
    checkPasswordRequirements(body.password);
    if (await findUserByAuthEmail(db, project.id, body.email)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
    const passwordHash = await hashPassword(body.password);
    const now = deps.clock.now();
    let created: { userId: string; refreshToken: string };
    try {
      created = await db.transaction().execute(async (trx) => {
        const user = await insertPasswordUser(trx, { projectId: project.id, email: body.email, passwordHash, now });
        const session = await createSession(trx, { projectId: project.id, userId: user.id, now });
        return { userId: user.id, refreshToken: session.refreshToken };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
      throw error;
    }
    const answer: SignInResponseWire = {
      access_token: await deps.accessTokens.issue(project.id, created.userId),
      refresh_token: created.refreshToken,
      user_id: created.userId,
    };
    return jsonResponse(answer);
  });

  api.post('/auth/password/sign-in', requireAccess(deps, 'client'), async (c) => {
    const body = await readJson(c.req.raw, signInBody, deps.bodyLimitBytes);
    const { project } = c.get('auth');
    if (!project.config.credential_enabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    const user = await findUserByAuthEmail(db, project.id, body.email);
    const matches = await verifyPassword(user?.password_hash ?? null, body.password);
    if (!user || !matches) throw new KnownError('EMAIL_PASSWORD_MISMATCH');
    const now = deps.clock.now();
    const session = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ last_active_at: new Date(now) })
        .where('project_id', '=', project.id)
        .where('id', '=', user.id)
        .execute();
      return createSession(trx, { projectId: project.id, userId: user.id, now });
    });
    const answer: SignInResponseWire = {
      access_token: await deps.accessTokens.issue(project.id, user.id),
      refresh_token: session.refreshToken,
      user_id: user.id,
    };
    return jsonResponse(answer);
  });
}
