/**
 * What the OAuth flow (`oauth-flow.ts`) changes, as actions
 * (`events/recorder.ts`): start a flow (its single-use `oauth_flow` code),
 * use it when the provider returns, sign in with the provider's account (the
 * account rules and their events), check a link (applied, then always rolled
 * back, so that a refusal reaches the error page), issue the app's
 * authorization code, and link the provider to the session at the code
 * exchange (its refresh token rotated). The flow builds each context (in the
 * flow's project, from its browser, by the linking user or nobody yet) and
 * calls them.
 */
import type { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import type { AuditSource } from '../audit/audit-log.js';
import { markCodeUsed } from '../codes/code-store.js';
import { type IssuedCode, issueCode } from '../codes/codes.js';
import type { Sealer } from '../crypto/encryption.js';
import { sha256Hex } from '../crypto/hash.js';
import { type ActionContext, type ActionTx, act, record } from '../events/recorder.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { RefreshTokenChain } from '../sessions/refresh-rotation.js';
import { lockUserSession, rotateSessionToken } from '../sessions/session-store.js';
import type { Db } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import { applyAccountRules } from './account-rules.js';
import type { ProviderProfile, ProviderTokens } from './providers.js';

/** Starts a flow: stores the outer flow as a single-use `oauth_flow` code issued `now`, whose value is the state. */
export function startFlow(ctx: ActionContext, data: Record<string, JsonValue>, now: number): Promise<IssuedCode> {
  return act(ctx, (tx) => issueCode(tx.db, { projectId: ctx.projectId, purpose: 'oauth_flow', data, now }));
}

/** Uses the flow's code before the provider is called: of two callbacks with its state, one goes on (true). */
export function claimFlow(ctx: ActionContext, codeId: string, now: number): Promise<boolean> {
  return act(ctx, (tx) => markCodeUsed(tx.db, codeId, now));
}

/** A provider sign-in to apply: whose account, from which provider, with what the provider gave. */
export interface ProviderSignIn {
  project: ProjectRecord;
  providerId: string;
  profile: ProviderProfile;
  tokens: ProviderTokens;
  /** Who signs in, for the audit log of what a proven address changes. */
  source: AuditSource;
}

/**
 * Signs in with the provider's account (the account rules: the user it is
 * connected to, the owner of its verified address, or a new user), and
 * records `sign_up` or `sign_in.succeeded`, and `oauth.connected` when the
 * account was connected now. Throws the known error of a refusal.
 */
export function signInWithProvider(
  ctx: ActionContext,
  sealer: Sealer,
  input: ProviderSignIn,
): Promise<{ userId: string; isNewUser: boolean }> {
  return act(ctx, async (tx) => {
    const outcome = await applyAccountRules(tx.db, sealer, {
      ...input,
      linkUserId: null,
      now: ctx.clock.now(),
    });
    const userId = outcome.userId;
    const data = { method: 'oauth', provider: input.providerId } as const;
    await record(tx, outcome.isNewUser ? 'sign_up' : 'sign_in.succeeded', { userId, data });
    if (outcome.connected) await record(tx, 'oauth.connected', { userId, data: { provider: input.providerId } });
    return outcome;
  });
}

/** Issues the app's two-minute `oauth_authorization_code`, holding what its exchange needs. */
export function issueAuthorizationCode(ctx: ActionContext, data: Record<string, JsonValue>): Promise<IssuedCode> {
  return act(ctx, (tx) =>
    issueCode(tx.db, { projectId: ctx.projectId, purpose: 'oauth_authorization_code', data, now: ctx.clock.now() }),
  );
}

/** A link's callback outcome, kept with the app's authorization code until the code exchange applies it. */
export const linkData = z.object({
  session_id: z.string(),
  provider_id: z.string(),
  profile: z.object({
    accountId: z.string(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    displayName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
  }) satisfies z.ZodType<ProviderProfile>,
  /** The provider's tokens, sealed to the project and the session (the code's row holds no token in clear). */
  tokens_sealed: z.string(),
});
export type LinkData = z.infer<typeof linkData>;

/** What a link adds, and to whom. */
export interface LinkInput {
  project: ProjectRecord;
  userId: string;
  link: LinkData;
  tokens: ProviderTokens;
  /** The refusal when the session has ended. */
  ended: () => KnownError;
}

/** Thrown to roll a transaction back once its work has shown it would succeed. */
class RollBack extends Error {}

/**
 * Checks a link at the provider's callback, so that a refusal (the session
 * ended, the account rules) reaches the error page: applies it as the code
 * exchange will, then rolls it back (it records nothing, announces nothing).
 */
export async function checkLink(ctx: ActionContext, sealer: Sealer, input: LinkInput): Promise<void> {
  await act(ctx, async (tx) => {
    await applyLink(tx, sealer, input);
    throw new RollBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RollBack)) throw error;
  });
}

/**
 * The code exchange of a link: runs `also` (the code's use), adds the
 * provider to the session the flow was started from, in one transaction with
 * the account rules, and rotates that session's refresh token
 * (`sessions/refresh-rotation.ts`). Returns the session's id, its new
 * refresh token and the hash of the one it replaced; `input.ended()` when the
 * session ended meanwhile, and the account rules' refusals.
 */
export function linkToSession(
  ctx: ActionContext,
  sealer: Sealer,
  refreshTokens: Pick<RefreshTokenChain, 'next'>,
  input: LinkInput & { also: (trx: Db) => Promise<void> },
): Promise<{ sessionId: string; refreshToken: string; replaced: string }> {
  return act(ctx, async (tx) => {
    const trx = tx.db;
    await input.also(trx);
    const session = await applyLink(tx, sealer, input);
    const refreshToken = refreshTokens.next(session.id, session.refresh_token_hash);
    const now = ctx.clock.now();
    if (!(await rotateSessionToken(trx, session, session.refresh_token_hash, sha256Hex(refreshToken), now))) {
      throw input.ended();
    }
    return { sessionId: session.id, refreshToken, replaced: session.refresh_token_hash };
  });
}

/**
 * Adds the provider account to the linking user in the action `tx`, while it
 * holds the session's row: the account rules, and `oauth.connected` (or, for
 * an account connected to the user already, `oauth.account_updated`).
 * Returns the session; `ended()` is thrown when it ended.
 */
async function applyLink(tx: ActionTx, sealer: Sealer, input: LinkInput) {
  const { project, userId, link } = input;
  const trx = tx.db;
  const now = tx.clock.now();
  const session = await lockUserSession(trx, project.id, userId, link.session_id, now);
  if (!session) throw input.ended();
  // The linking user acts.
  const outcome = await applyAccountRules(trx, sealer, {
    project,
    providerId: link.provider_id,
    linkUserId: userId,
    profile: link.profile,
    tokens: input.tokens,
    now,
    source: { auth: null, projectId: project.id, userId, client: tx.client, deps: { clock: tx.clock } },
  });
  // An account connected already had its e-mail and tokens stored again.
  await record(tx, outcome.connected ? 'oauth.connected' : 'oauth.account_updated', {
    userId,
    data: { provider: link.provider_id },
  });
  return session;
}
