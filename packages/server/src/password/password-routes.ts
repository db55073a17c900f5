/**
 * Password sign-up and sign-in (wire-protocol §14.1, §5.4). The password is
 * hashed or verified before any transaction opens. Unknown e-mail and wrong
 * password give the same error after the same amount of hashing work.
 */
import { KnownError, type SignInResponseWire } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { authEmailIndex, isUniqueViolation } from '../storage/schema.js';
import { findUserByAuthEmail, insertPasswordUser } from '../users/user-store.js';
import { checkPasswordRequirements, hashPassword, verifyPassword } from './passwords.js';
import { requireAccess } from '../access/request-auth.js';
import { createSession } from '../sessions/session-store.js';

/**
 * A sign-in e-mail: surrounding whitespace trimmed (mobile keyboards add a
 * trailing space), then checked. The pattern admits ASCII only, so the
 * database's `lower()` and JavaScript's `toLowerCase()` agree on it; case is
 * kept as typed and ignored by lookups and the unique index.
 */
const email = z.string().trim().pipe(z.email().max(254));

const signUpBody = z.strictObject({
  email,
  password: z.string(),
  verification_callback_url: z.url().max(2048).optional(),
});

const signInBody = z.strictObject({ email, password: z.string() });

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
      if (isUniqueViolation(error, authEmailIndex)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
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
