/**
 * A software WebAuthn authenticator for tests: what a browser and a platform
 * authenticator would hand back to the service, built for real with
 * node:crypto (ES256 on P-256). A registration is an `attestationObject` in
 * CBOR (`fmt: "none"`) whose authenticator data carries the RP id hash, the
 * flags, the signature counter and the attested credential (AAGUID,
 * credential id, COSE key); an assertion is authenticator data signed
 * together with the SHA-256 of the client data JSON. The JSON shapes are those
 * the browser library gives the SDK (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`).
 *
 * As the SDK does, the placeholder RP id of the options is replaced by the
 * page's hostname, unless a test names another RP id.
 *
 * @example
 * const authenticator = new SoftwareAuthenticator();
 * const credential = authenticator.register(options_json, { origin: 'http://localhost:3000' });
 * const assertion = authenticator.authenticate(options_json, { origin: 'http://localhost:3000' });
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/** Where the ceremony runs, as the browser tells the authenticator. */
export interface Page {
  /** The page's origin (`clientDataJSON.origin`). */
  origin: string;
  /** The RP id the authenticator scopes the credential to (default: the origin's hostname). */
  rpId?: string;
}

/** A credential the authenticator holds. */
export interface HeldCredential {
  id: string;
  rpId: string;
  /** The user handle from the registration options (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

interface Flags {
  userVerified?: boolean;
  backupEligible?: boolean;
  backedUp?: boolean;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export class SoftwareAuthenticator {
  readonly credentials: HeldCredential[] = [];
  /** Added to a credential's counter at each assertion (0: an authenticator that keeps no counter). */
  counterStep = 1;

  constructor(
    private readonly flags: Flags = { userVerified: true, backupEligible: true, backedUp: true },
    private readonly aaguid: Uint8Array = new Uint8Array(16),
  ) {}

  /**
   * Creates a credential for the registration `options` (`options_json` of the
   * service); `again` registers a credential it holds once more (same id and key).
   */
  register(
    // biome-ignore lint/suspicious/noExplicitAny: the options are JSON from the service.
    options: any,
    page: Page,
    choice: { clientData?: Record<string, unknown>; again?: HeldCredential } = {},
  ) {
    const rpId = page.rpId ?? new URL(page.origin).hostname;
    const { privateKey, publicKey } = choice.again
      ? { privateKey: choice.again.privateKey, publicKey: createPublicKey(choice.again.privateKey) }
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = choice.again ? Buffer.from(choice.again.id, 'base64url') : randomBytes(32);
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const attested = Buffer.concat([this.aaguid, Buffer.from([id.length >> 8, id.length & 0xff]), id, cbor(coseKey)]);
    const authData = this.authenticatorData(rpId, 0, attested);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: page.origin,
      crossOrigin: false,
      ...choice.clientData,
    });
    const credentialId = b64url(id);
    if (!choice.again)
      this.credentials.push({ id: credentialId, rpId, userHandle: options.user.id, privateKey, counter: 0 });
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(
          cbor(
            new Map<string, unknown>([
              ['fmt', 'none'],
              ['attStmt', new Map()],
              ['authData', authData],
            ]),
          ),
        ),
        transports: ['internal', 'hybrid'],
      },
    };
  }

  /**
   * Signs the sign-in `options` with a credential for the page (the newest, or
   * `credential`): the authenticator's counter goes up by `counterStep` first.
   */
  authenticate(
    // biome-ignore lint/suspicious/noExplicitAny: the options are JSON from the service.
    options: any,
    page: Page,
    choice: { credential?: HeldCredential; clientData?: Record<string, unknown> } = {},
  ) {
    const rpId = page.rpId ?? new URL(page.origin).hostname;
    const credential = choice.credential ?? this.credentials.findLast((each) => each.rpId === rpId);
    if (!credential) throw new Error(`no credential for ${rpId}`);
    credential.counter += this.counterStep;
    const authData = this.authenticatorData(rpId, credential.counter);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: page.origin,
        crossOrigin: false,
        ...choice.clientData,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }

  /** RP id hash, flags (UP always; UV, BE, BS as set; AT with attested data), counter, attested data. */
  private authenticatorData(rpId: string, counter: number, attested?: Buffer): Buffer {
    let flags = 0x01;
    if (this.flags.userVerified) flags |= 0x04;
    if (this.flags.backupEligible) flags |= 0x08;
    if (this.flags.backedUp) flags |= 0x10;
    if (attested) flags |= 0x40;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }
}

/**
 * The CBOR (RFC 8949) of what WebAuthn needs: integers, byte strings, text
 * strings, arrays and maps (definite lengths, keys in the order given).
 */
function cbor(value: unknown): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('cbor: integers only');
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  if (value instanceof Map) {
    const parts = [...value].flatMap(([key, item]) => [cbor(key), cbor(item)]);
    return Buffer.concat([head(5, value.size), ...parts]);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

/** A major type with its argument, in the shortest form. */
function head(major: number, argument: number): Buffer {
  const type = major << 5;
  if (argument < 24) return Buffer.from([type | argument]);
  if (argument < 0x100) return Buffer.from([type | 24, argument]);
  if (argument < 0x10000) return Buffer.from([type | 25, argument >> 8, argument & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = type | 26;
  out.writeUInt32BE(argument, 1);
  return out;
}
