/**
 * The WebAuthn side of passkeys: the ceremonies' options, the checks of what
 * the browser sends back, and where a project's passkeys may be used.
 *
 * The verifying is done by `@simplewebauthn/server`: WebAuthn verification
 * (attestation formats, COSE keys, signature counters, flags, RP id hashes) is
 * easy to get subtly wrong, and this library is the maintained, widely used
 * verifier whose options JSON the Stack Auth SDK itself was written against
 * (wire-protocol §11). It is used here only, behind these few functions.
 *
 * Relying party: the options carry the placeholder RP id
 * `THIS_VALUE_WILL_BE_REPLACED.example.com`, which the SDK replaces with the
 * page's hostname (the SDK throws on any other). So a response is accepted
 * from a page whose origin the project trusts, as its redirects are
 * (`projects/trusted-urls.ts`): one of its `domains`, or localhost when
 * `allow_localhost` is on; and the RP id the authenticator signed must be the
 * hostname of such an origin.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import type { ProjectConfig } from '../projects/project-config.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';

/** The RP id the options carry; the SDK puts the page's hostname in its place. */
export const placeholderRpId = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

/** How long the browser's prompt may take, as the original backend (the challenge's code lives longer: five minutes). */
const ceremonyTimeoutMs = 60_000;

/** A WebAuthn check that failed, with the sentence the caller gets in `details.message`. */
export class WebAuthnRefusal extends Error {}

/** The user handle of a user: the bytes of the user's id, as the authenticator returns them (base64url). */
export function userHandleOf(userId: string): string {
  return isoBase64URL.fromBuffer(isoUint8Array.fromUTF8String(userId));
}

/** What a registration needs to know of the user and the project. */
export interface RegistrationSubject {
  userId: string;
  /** What the authenticator shows to pick the passkey: the e-mail, else the id. */
  userName: string;
  displayName: string;
  projectName: string;
  /** The user's passkeys, which the authenticator must not register again. */
  existingCredentialIds: readonly string[];
}

/** Options for `navigator.credentials.create()`: a discoverable credential for the user. */
export async function registrationOptions(
  subject: RegistrationSubject,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { hints, ...options } = await generateRegistrationOptions({
    rpName: subject.projectName,
    rpID: placeholderRpId,
    userID: isoUint8Array.fromUTF8String(subject.userId),
    userName: subject.userName,
    userDisplayName: subject.displayName,
    timeout: ceremonyTimeoutMs,
    attestationType: 'none',
    excludeCredentials: subject.existingCredentialIds.map((id) => ({ id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  // No hints are given: the original backend's options have no empty `hints` list either.
  return hints?.length ? { ...options, hints } : options;
}

/** Options for `navigator.credentials.get()`: any discoverable credential of the site (none listed). */
export function authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: placeholderRpId,
    allowCredentials: [],
    userVerification: 'preferred',
    timeout: ceremonyTimeoutMs,
  });
}

const clientData = z.object({ origin: z.string() });

/**
 * The origins and RP ids a response may come from: the project's trusted
 * domains, and the origin the browser reported when the project trusts it
 * (localhost, when allowed). An untrusted origin is refused here, with a
 * sentence of our own rather than the library's list of the project's domains.
 */
function expectedSite(
  config: Pick<ProjectConfig, 'allow_localhost' | 'domains'>,
  clientDataJSON: string,
): { origins: string[]; rpIds: string[] } {
  let origin: string;
  try {
    origin = clientData.parse(JSON.parse(isoUint8Array.toUTF8String(isoBase64URL.toBuffer(clientDataJSON)))).origin;
  } catch {
    throw new WebAuthnRefusal('The client data is not valid JSON with an origin.');
  }
  if (!isTrustedUrl(origin, config) || new URL(origin).origin !== origin) {
    throw new WebAuthnRefusal(`The page's origin ${JSON.stringify(origin)} is not a trusted domain of this project.`);
  }
  const origins = new Set([origin]);
  for (const { domain } of config.domains) {
    try {
      origins.add(new URL(domain).origin);
    } catch {}
  }
  return { origins: [...origins], rpIds: [...new Set([...origins].map((each) => new URL(each).hostname))] };
}

/** What a verified registration gives to store. */
export interface VerifiedCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  aaguid: string;
  backedUp: boolean;
}

/** Checks a registration response against its challenge and the project's sites; the credential to keep. */
export async function verifyRegistration(
  config: Pick<ProjectConfig, 'allow_localhost' | 'domains'>,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<VerifiedCredential> {
  const site = expectedSite(config, response.response.clientDataJSON);
  const result = await refusing(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: site.origins,
      expectedRPID: site.rpIds,
      requireUserVerification: false,
    }),
  );
  if (!result.verified) throw new WebAuthnRefusal('The registration response could not be verified.');
  const info = result.registrationInfo;
  // The library reads the credential from the authenticator data; the JSON's id must name the same one.
  if (info.credential.id !== response.id) {
    throw new WebAuthnRefusal("The response's id is not the id of the credential it attests.");
  }
  return {
    credentialId: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: info.credential.transports ?? response.response.transports ?? [],
    aaguid: info.aaguid,
    backedUp: info.credentialBackedUp,
  };
}

/** A stored credential, as an assertion is checked against it. */
export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * Checks an assertion against its challenge, the project's sites and the
 * stored credential (its key, and a signature counter that went up unless it
 * and the stored one are both 0); the new counter.
 */
export async function verifyAssertion(
  config: Pick<ProjectConfig, 'allow_localhost' | 'domains'>,
  response: AuthenticationResponseJSON,
  challenge: string,
  credential: StoredCredential,
): Promise<number> {
  const site = expectedSite(config, response.response.clientDataJSON);
  const result = await refusing(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: site.origins,
      expectedRPID: site.rpIds,
      requireUserVerification: false,
      credential: {
        id: credential.credentialId,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports as NonNullable<RegistrationResponseJSON['response']['transports']>,
      },
    }),
  );
  if (!result.verified) throw new WebAuthnRefusal('The passkey signature is not valid.');
  return result.authenticationInfo.newCounter;
}

/** Runs a library check, turning what it throws into a refusal with its message. */
async function refusing<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : 'The response could not be verified.';
    throw new WebAuthnRefusal(message.slice(0, 500));
  }
}
