/**
 * Passkeys (wire-protocol §11, §14.1): WebAuthn registration for a signed-in
 * user and sign-in with a discoverable credential, plus the extension routes
 * that list, rename and remove a user's passkeys.
 *
 * Each ceremony is two calls. `initiate-*` answers the options for the
 * browser (`options_json`, its RP id the placeholder the SDK replaces, see
 * `webauthn.ts`) and a `code`: a single-use, five-minute verification code
 * whose row keeps the challenge (and, for a registration, the user). The
 * second call sends the browser's response with the code back.
 *
 * Decisions where the protocol leaves room:
 * - Every refusal of the second call is PASSKEY_REGISTRATION_FAILED or
 *   PASSKEY_AUTHENTICATION_FAILED with a sentence in `details.message`, the
 *   code's own failures too (unknown, expired, used, guessed at too often):
 *   these are the errors the SDK turns into a `Result` for its caller; any
 *   other would be thrown at the page.
 * - A challenge is answered once: a response that fails verification uses its
 *   code up as well, so the ceremony starts again.
 * - Every ceremony needs the project's `passkey_enabled`
 *   (PASSKEY_AUTHENTICATION_NOT_ENABLED), registering too, as the original
 *   backend; signing in also needs the user's `passkey_auth_enabled`, which a
 *   user may turn off (`PATCH /users/me`) without losing the passkeys.
 * - A passkey id that is malformed, of another user or of another project is
 *   PASSKEY_NOT_FOUND (an extension code, like the routes).
 */
import { KnownError, type KnownErrorCode } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode } from '../codes/code-mail.js';
import { issueCode, useCode, verificationCode } from '../codes/codes.js';
import { idRef, successAnswer } from '../common/schemas.js';
import type { Deps } from '../deps.js';
import { type ActionContext, act, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { secondFactorErrors } from '../mfa/mfa-attempts.js';
import type { ProjectRecord } from '../projects/projects.js';
import { limitPasskeyChallenges } from '../rate-limit/rate-limit.js';
import { completeSignIn, refuseSignIn, signInAnswer } from '../sessions/complete-sign-in.js';
import type { JsonValue, VerificationCodeRow } from '../storage/schema.js';
import { resolveUser, userRefErrors } from '../users/user-ref.js';
import { findUser } from '../users/user-store.js';
import { findPasskeyByCredential, listUserPasskeys, type Passkey, recordPasskeyUse } from './passkey-store.js';
import { addPasskey, registrationFailed, removePasskey, renamePasskey, spendChallenge } from './passkeys-actions.js';
import {
  authenticationOptions,
  registrationOptions,
  userHandleOf,
  type VerifiedCredential,
  verifyAssertion,
  verifyRegistration,
  WebAuthnRefusal,
} from './webauthn.js';

const authenticationFailed = (message: string) => new KnownError('PASSKEY_AUTHENTICATION_FAILED', { message });

/** Base64url text of at most `max` characters (what WebAuthn's JSON encodings carry). */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: 'must be base64url' });

/** A credential id: at most 1023 bytes (WebAuthn §5.1), 1364 characters of base64url. */
const credentialId = base64url(1400).min(1);
const extensionResults = z.record(z.string(), z.json()).default({});
const attachment = z
  .enum(['platform', 'cross-platform'])
  .nullish()
  .transform((value) => value ?? undefined);
const knownTransports = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
/** How the browser may reach the authenticator; names this service does not know are dropped. */
const transports = z
  .array(z.string().max(32))
  .max(16)
  .transform((names) =>
    names.filter((name): name is (typeof knownTransports)[number] =>
      (knownTransports as readonly string[]).includes(name),
    ),
  );

/** `RegistrationResponseJSON` as the browser library sends it. */
const registrationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65_536),
    authenticatorData: base64url(16_384).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
});

/** `AuthenticationResponseJSON` as the browser library sends it. */
const authenticationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  authenticatorAttachment: attachment,
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(16_384),
    signature: base64url(4096),
    userHandle: base64url(128)
      .nullish()
      .transform((value) => value ?? undefined),
  }),
});

/** The browser's options and the code that brings the response back. */
const ceremonyAnswer = (id: string) =>
  z
    .object({
      options_json: z
        .record(z.string(), z.json())
        .meta({ description: 'WebAuthn options JSON for the browser; `rp.id`/`rpId` is a placeholder.' }),
      code: z.string().meta({ description: 'Send it back with the response; single use, valid five minutes.' }),
    })
    .meta({ id });

/** Options as plain JSON (the library leaves keys it does not use `undefined`). */
function plainJson(options: object): Record<string, JsonValue> {
  return JSON.parse(JSON.stringify(options));
}

const challengeData = z.object({ challenge: z.string() });
const registrationData = challengeData.extend({ user_id: z.string() });

const codeMessages: Partial<Record<KnownErrorCode, string>> = {
  VERIFICATION_CODE_NOT_FOUND: 'The passkey challenge is unknown; start again.',
  VERIFICATION_CODE_EXPIRED: 'The passkey challenge expired; start again.',
  VERIFICATION_CODE_ALREADY_USED: 'The passkey challenge was already answered; start again.',
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: 'The passkey challenge was guessed at too often; start again.',
};

/**
 * The stored challenge of a ceremony code the client sent back (its guesses
 * limited as every code's are), or the ceremony's failure saying what is wrong with the code.
 */
async function ceremonyCode(
  deps: Deps,
  ceremony: { project: ProjectRecord; clientIp: string | null; ctx: ActionContext },
  purpose: 'passkey_registration' | 'passkey_authentication',
  code: string,
  failure: (message: string) => KnownError,
): Promise<VerificationCodeRow> {
  const { project, clientIp, ctx } = ceremony;
  try {
    return await checkClientCode(deps, project, { purpose, code, now: deps.clock.now(), clientIp }, ctx);
  } catch (error) {
    const message = error instanceof KnownError ? codeMessages[error.code as KnownErrorCode] : undefined;
    throw message ? failure(message) : error;
  }
}

/** The ceremony's failure for a code the work found used meanwhile (another request answered it first). */
function whenUsedMeanwhile(failure: (message: string) => KnownError) {
  return (error: unknown): never => {
    const message = error instanceof KnownError ? codeMessages[error.code as KnownErrorCode] : undefined;
    throw message ? failure(message) : error;
  };
}

/** PASSKEY_AUTHENTICATION_NOT_ENABLED unless the project has passkeys on (every ceremony, registering too). */
function requirePasskeys(project: ProjectRecord): void {
  if (!project.config.passkey_enabled) throw new KnownError('PASSKEY_AUTHENTICATION_NOT_ENABLED');
}

const initiateRegistration = defineRoute({
  method: 'POST',
  path: '/auth/passkey/initiate-passkey-registration',
  tag: 'passkeys',
  summary:
    "Starts registering a passkey for the signed-in user: WebAuthn creation options (a discoverable credential, none of the user's passkeys again) and the code to send back.",
  access: 'client',
  user: true,
  answer: ceremonyAnswer('PasskeyRegistrationStarted'),
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED'],
  handler: async (input) => {
    const { auth, userId, deps } = input;
    const { project } = auth;
    requirePasskeys(project);
    const user = await findUser(deps.db, project.id, userId);
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    const existing = await listUserPasskeys(deps.db, project.id, userId);
    const options = await registrationOptions({
      userId,
      userName: user.primary_email ?? userId,
      displayName: user.display_name ?? user.primary_email ?? '',
      projectName: project.displayName,
      existingCredentialIds: existing.map((passkey) => passkey.credential_id),
    });
    // A challenge handed out is no event: an action that records nothing.
    const issued = await act(requestContext(input), (tx) =>
      issueCode(tx.db, {
        projectId: project.id,
        purpose: 'passkey_registration',
        data: { user_id: userId, challenge: options.challenge },
        now: deps.clock.now(),
      }),
    );
    return { options_json: plainJson(options), code: issued.code };
  },
});

const register = defineRoute({
  method: 'POST',
  path: '/auth/passkey/register',
  tag: 'passkeys',
  summary:
    "Registers the passkey the browser created for the signed-in user (its response to the registration's options, with the code); answers the user handle.",
  access: 'client',
  user: true,
  body: z.strictObject({
    credential: registrationResponse,
    code: verificationCode,
    name: z.string().trim().min(1).max(64).optional().meta({ description: 'Extension: a name for the passkey.' }),
  }),
  answer: z
    .object({ user_handle: z.string().meta({ description: "The bytes of the user's id, base64url." }) })
    .meta({ id: 'PasskeyRegistered' }),
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED', 'PASSKEY_REGISTRATION_FAILED'],
  handler: async (input) => {
    const { auth, body, userId, client, deps } = input;
    const { project } = auth;
    requirePasskeys(project);
    const ctx = requestContext(input);
    const ceremony = { project, clientIp: client.ip, ctx };
    const row = await ceremonyCode(deps, ceremony, 'passkey_registration', body.code, registrationFailed);
    const data = registrationData.safeParse(row.data);
    // Another user's registration is not this one's to answer, nor to use up.
    if (!data.success || data.data.user_id !== userId) {
      throw registrationFailed(codeMessages.VERIFICATION_CODE_NOT_FOUND!);
    }
    let credential: VerifiedCredential;
    try {
      credential = await verifyRegistration(project.config, body.credential, data.data.challenge);
    } catch (error) {
      if (!(error instanceof WebAuthnRefusal)) throw error;
      await spendChallenge(ctx, row);
      throw registrationFailed(error.message);
    }
    await addPasskey(ctx, userId, row, credential, body.name).catch(whenUsedMeanwhile(registrationFailed));
    return { user_handle: userHandleOf(userId) };
  },
});

const initiateAuthentication = defineRoute({
  method: 'POST',
  path: '/auth/passkey/initiate-passkey-authentication',
  tag: 'passkeys',
  summary:
    'Starts a passkey sign-in: WebAuthn request options for any passkey of the site (discoverable, none listed) and the code to send back. Limited per client address (`code_checks_per_client`; 429 beyond).',
  access: 'client',
  answer: ceremonyAnswer('PasskeySignInStarted'),
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED'],
  handler: async (input) => {
    const { auth, client, deps } = input;
    requirePasskeys(auth.project);
    // Anyone may start one, and each stores a challenge: limited per client address (429 beyond).
    await limitPasskeyChallenges(deps.counters, auth.project, client.ip, deps.clock.now());
    const options = await authenticationOptions();
    const issued = await act(requestContext(input), (tx) =>
      issueCode(tx.db, {
        projectId: auth.project.id,
        purpose: 'passkey_authentication',
        data: { challenge: options.challenge },
        now: deps.clock.now(),
      }),
    );
    return { options_json: plainJson(options), code: issued.code };
  },
});

/** Why a passkey sign-in was refused, as the audit log's `reason` and the caller's sentence. */
class SignInRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly userId: string | null = null,
  ) {
    super(message);
  }
}

const signIn = defineRoute({
  method: 'POST',
  path: '/auth/passkey/sign-in',
  tag: 'passkeys',
  summary:
    "Signs in with a passkey: the browser's response to the sign-in options, with the code. The passkey names its user.",
  access: 'client',
  body: z.strictObject({ authentication_response: authenticationResponse, code: verificationCode }),
  answer: signInAnswer,
  // A user with TOTP (or any user, when the project requires it) is asked for the second factor here too.
  errors: ['PASSKEY_AUTHENTICATION_NOT_ENABLED', 'PASSKEY_AUTHENTICATION_FAILED', ...secondFactorErrors],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requirePasskeys(project);
    const ctx = requestContext(input);
    const ceremony = { project, clientIp: client.ip, ctx };
    const row = await ceremonyCode(deps, ceremony, 'passkey_authentication', body.code, authenticationFailed);
    const response = body.authentication_response;
    let passkey: Passkey;
    let counter: number;
    try {
      const data = challengeData.safeParse(row.data);
      if (!data.success) throw new SignInRefusal('wrong_code', codeMessages.VERIFICATION_CODE_NOT_FOUND!);
      const found = await findPasskeyByCredential(deps.db, project.id, response.id);
      if (!found) throw new SignInRefusal('unknown_passkey', 'This passkey is not registered here.');
      passkey = found;
      const owner = passkey.user_id;
      if (!response.response.userHandle || response.response.userHandle !== userHandleOf(owner)) {
        throw new SignInRefusal('wrong_user_handle', 'The passkey answered for another user.', owner);
      }
      const user = await findUser(deps.db, project.id, owner);
      if (!user?.passkey_auth_enabled) {
        throw new SignInRefusal('passkey_auth_disabled', 'Passkey sign-in is turned off for this account.', owner);
      }
      counter = await verifyAssertion(project.config, response, data.data.challenge, {
        credentialId: passkey.credential_id,
        publicKey: passkey.public_key,
        counter: passkey.counter,
        transports: passkey.transports,
      }).catch((error: unknown) => {
        if (error instanceof WebAuthnRefusal) throw new SignInRefusal('bad_assertion', error.message, owner);
        throw error;
      });
    } catch (error) {
      if (!(error instanceof SignInRefusal)) throw error;
      await act(ctx, async (tx) => {
        await spendChallenge(tx, row);
        await refuseSignIn(input, { userId: error.userId, method: 'passkey', reason: error.reason });
      });
      throw authenticationFailed(error.message);
    }
    return completeSignIn(input, {
      method: 'passkey',
      user: async (trx) => {
        const now = deps.clock.now();
        await useCode(trx, row, now).catch(whenUsedMeanwhile(authenticationFailed));
        // Another sign-in with the same counter value got there first: a replayed or cloned response.
        if (!(await recordPasskeyUse(trx, passkey, counter, now))) {
          throw authenticationFailed('The passkey signature counter did not increase.');
        }
        return { userId: passkey.user_id, isNewUser: false };
      },
      answer: 'sign-in-or-up',
    });
  },
});

/** A passkey on the wire (extension). */
const passkeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at_millis: z.number(),
    last_used_at_millis: z.number().nullable(),
  })
  .strict()
  .meta({ id: 'Passkey' });

function passkeyView(passkey: Passkey): z.infer<typeof passkeySchema> {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at_millis: passkey.created_at.getTime(),
    last_used_at_millis: passkey.last_used_at?.getTime() ?? null,
  };
}

const userParams = z.object({ userId: idRef });
const passkeyParams = userParams.extend({ passkeyId: z.string().max(100) });

const listPasskeys = defineRoute({
  method: 'GET',
  path: '/users/:userId/passkeys',
  tag: 'passkeys',
  summary: "A user's passkeys, oldest first: a client its own (`me`), server code any user's. Never the keys.",
  access: 'client',
  params: userParams,
  answer: z.object({ items: z.array(passkeySchema), is_paginated: z.literal(false) }).meta({ id: 'PasskeyList' }),
  errors: userRefErrors,
  handler: async ({ auth, params, deps }) => {
    const user = await resolveUser(deps.db, auth, params.userId);
    const passkeys = await listUserPasskeys(deps.db, auth.project.id, user.id);
    return { items: passkeys.map(passkeyView), is_paginated: false as const };
  },
});

const renamePasskeyRoute = defineRoute({
  method: 'PATCH',
  path: '/users/:userId/passkeys/:passkeyId',
  tag: 'passkeys',
  summary: "Renames a user's passkey: a client its own (`me`), server code any user's.",
  access: 'client',
  params: passkeyParams,
  body: z.strictObject({ name: z.string().trim().min(1).max(64) }),
  answer: passkeySchema,
  errors: [...userRefErrors, 'PASSKEY_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const user = await resolveUser(deps.db, auth, params.userId);
    return passkeyView(await renamePasskey(requestContext(input), user.id, params.passkeyId, body.name));
  },
});

const removePasskeyRoute = defineRoute({
  method: 'DELETE',
  path: '/users/:userId/passkeys/:passkeyId',
  tag: 'passkeys',
  summary:
    "Removes a user's passkey (a client its own, server code any user's); without passkeys left, the user's `passkey_auth_enabled` turns off.",
  access: 'client',
  params: passkeyParams,
  answer: successAnswer,
  errors: [...userRefErrors, 'PASSKEY_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const user = await resolveUser(deps.db, auth, params.userId);
    await removePasskey(requestContext(input), user.id, params.passkeyId);
    return { success: true as const };
  },
});

export const passkeyRoutes: Route[] = [
  initiateRegistration,
  register,
  initiateAuthentication,
  signIn,
  listPasskeys,
  renamePasskeyRoute,
  removePasskeyRoute,
];
