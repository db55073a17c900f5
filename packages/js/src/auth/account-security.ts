/**
 * The code of passkeys and the second factor, loaded on the first call of one
 * of their methods (`deferred.ts`): the WebAuthn ceremonies (the browser
 * library loaded with them), the passkey list, the second step of a sign-in,
 * the setup a TOTP requirement asks for, and the user's own TOTP enrolment.
 */
import {
  type Json,
  KnownError,
  type PasskeyCeremonyWire,
  type PasskeyWire,
  type RecoveryCodesWire,
  type TotpEnrolmentWire,
} from '@latchkey/protocol';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { Send } from '../internal/core.js';
import { type Fields, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import { currentLocation } from '../internal/redirect.js';
import type { ClientScope } from '../users/account-data.js';
import { ignoreAnswer } from '../users/users-api.js';
import { completeSignIn, signInDestination } from './client-sign-in.js';
import type { WithScope } from './deferred.js';
import type { MfaActions, MfaProof, MfaSignIn, TotpEnrolment } from './mfa-auth.js';
import {
  type Passkey,
  type PasskeyActions,
  type PasskeyData,
  type PasskeySignIn,
  passkeysQuery,
} from './passkey-auth.js';
import { decodeSignIn } from './password.js';

/** The RP id the service puts in its WebAuthn options; the SDK puts the page's hostname in its place (wire-protocol §11). */
const rpIdPlaceholder = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

const loadWebAuthn = () => import('@simplewebauthn/browser');
type WebAuthn = Awaited<ReturnType<typeof loadWebAuthn>>;

/** A ceremony's start: the browser's options and the code that brings its response back. */
interface Ceremony {
  options: Record<string, Json>;
  code: string;
}

function decodeCeremony(body: unknown): Ceremony {
  return readFields<PasskeyCeremonyWire, Ceremony>(body, (answer) => ({
    options: answer.value('options_json', isObject, 'an object'),
    code: answer.nonEmptyString('code'),
  }));
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `POST path` with `{}` and the library, at once; the page's hostname put in place of the placeholder RP id. */
async function startCeremony(
  send: Send,
  path: string,
  rpIdOf: (options: Record<string, Json>) => { holder: Record<string, Json>; key: string },
): Promise<[WebAuthn, Ceremony]> {
  const hostname = currentLocation()?.hostname;
  if (!hostname) throw new Error('Passkeys run in a browser only (WebAuthn needs the page and its hostname).');
  const [webAuthn, ceremony] = await Promise.all([
    loadWebAuthn(),
    send({ method: 'POST', path, body: {} }, decodeCeremony),
  ]);
  const { holder, key } = rpIdOf(ceremony.options);
  if (holder[key] !== rpIdPlaceholder) {
    throw new Error(
      `The service's passkey options carry the RP id ${JSON.stringify(holder[key])}, not the placeholder.`,
    );
  }
  holder[key] = hostname;
  return [webAuthn, ceremony];
}

/**
 * `error` as the SDK throws it: a ceremony failure of the WebAuthn library
 * (`WebAuthnError`) as `PASSKEY_WEBAUTHN_ERROR` with its message and code
 * (the library's error as `cause`), anything else as it is.
 */
function webAuthnKnownError(error: unknown, webAuthn: Pick<WebAuthn, 'WebAuthnError'>): unknown {
  if (!(error instanceof webAuthn.WebAuthnError)) return error;
  const { message, code } = error;
  const known = new KnownError(
    'PASSKEY_WEBAUTHN_ERROR',
    { message, code },
    `The browser refused the passkey: ${message}`,
  );
  known.cause = error;
  return known;
}

const isAbortedCeremony = (error: unknown, webAuthn: WebAuthn) =>
  error instanceof webAuthn.WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED';

const signInWithPasskey: WithScope<PasskeySignIn>['signInWithPasskey'] = async (scope, options = {}) => {
  const { signal, autofill = false } = options;
  if (signal?.aborted) return null;
  if (autofill && !(await (await loadWebAuthn()).browserSupportsWebAuthnAutofill())) return null;
  const [webAuthn, ceremony] = await startCeremony(
    scope.send,
    '/auth/passkey/initiate-passkey-authentication',
    (json) => ({ holder: json, key: 'rpId' }),
  );
  const cancel = () => webAuthn.WebAuthnAbortService.cancelCeremony();
  let response: unknown;
  signal?.addEventListener('abort', cancel);
  try {
    if (signal?.aborted) return null;
    const optionsJSON = ceremony.options as unknown as PublicKeyCredentialRequestOptionsJSON;
    response = await webAuthn.startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  } catch (error) {
    // Ended by the caller, or an autofill another ceremony replaced: nothing to report.
    if (signal?.aborted || (autofill && isAbortedCeremony(error, webAuthn))) return null;
    throw webAuthnKnownError(error, webAuthn);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  if (signal?.aborted) return null;
  const body = { authentication_response: response, code: ceremony.code };
  const tokens = await scope.sendSignIn({ method: 'POST', path: '/auth/passkey/sign-in', body }, decodeSignIn);
  return completeSignIn(scope, tokens, options.noRedirect);
};

const registerPasskey: WithScope<PasskeyActions>['registerPasskey'] = async (scope, options = {}) => {
  const [webAuthn, ceremony] = await startCeremony(
    scope.send,
    '/auth/passkey/initiate-passkey-registration',
    (json) => ({
      holder: isObject(json.rp) ? (json.rp as Record<string, Json>) : {},
      key: 'id',
    }),
  );
  let credential: unknown;
  try {
    const optionsJSON = ceremony.options as unknown as PublicKeyCredentialCreationOptionsJSON;
    credential = await webAuthn.startRegistration({ optionsJSON });
  } catch (error) {
    throw webAuthnKnownError(error, webAuthn);
  }
  const body = definedFields({ credential, code: ceremony.code, name: options.name });
  await scope.send({ method: 'POST', path: '/auth/passkey/register', body }, ignoreAnswer);
  await scope.reloadWithUser(passkeysQuery);
};

function readPasskey(passkey: Fields<PasskeyWire>): PasskeyData {
  const lastUsed = passkey.value<number | null>(
    'last_used_at_millis',
    (value) => value === null || typeof value === 'number',
    'a number or null',
  );
  return {
    id: passkey.string('id'),
    name: passkey.string('name'),
    createdAt: new Date(passkey.number('created_at_millis')),
    lastUsedAt: lastUsed === null ? null : new Date(lastUsed),
  };
}

/** Decodes `GET /users/me/passkeys`. */
function decodePasskeyList(body: unknown): PasskeyData[] {
  return readFields<{ items: PasskeyWire[] }, PasskeyData[]>(body, (list) => list.list('items', readPasskey));
}

const passkeyPath = (id: string) => `/users/me/passkeys/${encodeURIComponent(id)}`;

function createPasskey(data: PasskeyData, scope: ClientScope): Passkey {
  return {
    ...data,
    async rename(name) {
      await scope.send({ method: 'PATCH', path: passkeyPath(data.id), body: { name } }, ignoreAnswer);
      await scope.data.reload(passkeysQuery);
    },
    async delete() {
      await scope.send({ method: 'DELETE', path: passkeyPath(data.id) }, ignoreAnswer);
      await scope.reloadWithUser(passkeysQuery);
    },
  };
}

/** The signed-in user's passkeys (`passkeysQuery` loads them). */
export async function listPasskeys(scope: ClientScope): Promise<Passkey[]> {
  const list = await scope.send({ method: 'GET', path: '/users/me/passkeys' }, decodePasskeyList);
  return list.map((passkey) => createPasskey(passkey, scope));
}

function decodeEnrolment(body: unknown): TotpEnrolment {
  return readFields<TotpEnrolmentWire, TotpEnrolment>(body, (answer) => ({
    secret: answer.nonEmptyString('secret_base32'),
    otpauthUri: answer.nonEmptyString('otpauth_uri'),
  }));
}

const readRecoveryCodes = (answer: Fields<RecoveryCodesWire>) =>
  answer.value<string[]>(
    'recovery_codes',
    (codes) => Array.isArray(codes) && codes.every((code) => typeof code === 'string'),
    'a list of strings',
  );

const decodeRecoveryCodes = (body: unknown) => readFields(body, readRecoveryCodes);

/** The proof's fields on the wire: `totp` or `recovery_code`. */
const proofBody = (proof: MfaProof) =>
  proof.totp !== undefined ? { totp: proof.totp } : { recovery_code: proof.recoveryCode };

const signInWithMfa: WithScope<MfaSignIn>['signInWithMfa'] = async (scope, options, redirect = {}) => {
  const type = options.totp !== undefined ? 'totp' : 'recovery_code';
  const body = { code: options.attemptCode, type, ...proofBody(options) };
  const tokens = await scope.sendSignIn({ method: 'POST', path: '/auth/mfa/sign-in', body }, decodeSignIn);
  return completeSignIn(scope, tokens, redirect.noRedirect, redirect.returnTo);
};

const startMfaSetup: WithScope<MfaSignIn>['startMfaSetup'] = (scope, attemptCode) =>
  scope.sendAsApp({ method: 'POST', path: '/auth/mfa/setup', body: { code: attemptCode } }, decodeEnrolment);

const confirmMfaSetup: WithScope<MfaSignIn>['confirmMfaSetup'] = async (scope, attemptCode, totp, redirect = {}) => {
  const request = { method: 'POST', path: '/auth/mfa/setup/confirm', body: { code: attemptCode, totp } } as const;
  const answer = await scope.sendSignIn(request, (body, serviceCookie) => ({
    tokens: decodeSignIn(body, serviceCookie),
    recoveryCodes: decodeRecoveryCodes(body),
  }));
  const result = await completeSignIn(scope, answer.tokens, redirect.noRedirect, redirect.returnTo);
  // Read now: the page may change before the person has kept the codes.
  const destination = signInDestination(scope.core, result.newUser, redirect.returnTo);
  return { ...result, recoveryCodes: answer.recoveryCodes, redirect: () => scope.core.redirect(destination) };
};

const enableTotp: WithScope<MfaActions>['enableTotp'] = (scope) =>
  scope.send({ method: 'POST', path: '/users/me/mfa/totp' }, decodeEnrolment);

const confirmTotp: WithScope<MfaActions>['confirmTotp'] = async (scope, totp) => {
  const request = { method: 'POST', path: '/users/me/mfa/totp/confirm', body: { totp } } as const;
  const recoveryCodes = await scope.send(request, decodeRecoveryCodes);
  await scope.reloadUser();
  return { recoveryCodes };
};

const disableTotp: WithScope<MfaActions>['disableTotp'] = async (scope, proof) => {
  await scope.send({ method: 'DELETE', path: '/users/me/mfa/totp', body: proofBody(proof) }, ignoreAnswer);
  await scope.reloadUser();
};

const regenerateRecoveryCodes: WithScope<MfaActions>['regenerateRecoveryCodes'] = (scope, totp) =>
  scope.send({ method: 'POST', path: '/users/me/mfa/recovery-codes', body: { totp } }, decodeRecoveryCodes);

/** Every deferred method of `ClientApp` and `CurrentUser`, by name. */
export const methods: WithScope<PasskeySignIn & PasskeyActions & MfaSignIn & MfaActions> = {
  signInWithPasskey,
  registerPasskey,
  listPasskeys: (scope) => scope.data.load(passkeysQuery),
  signInWithMfa,
  startMfaSetup,
  confirmMfaSetup,
  enableTotp,
  confirmTotp,
  disableTotp,
  regenerateRecoveryCodes,
};
