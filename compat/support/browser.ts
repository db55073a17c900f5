/**
 * The browser pieces the official SDK reaches for in its passkey and MFA
 * flows, stood in for in Node for the duration of one call:
 *
 * - `prompt()`: 2.7.23 asks for the TOTP code with the bare global `prompt`
 *   when a sign-in meets MULTI_FACTOR_AUTHENTICATION_REQUIRED.
 * - `window` and `navigator.credentials`: `@simplewebauthn/browser` (inside
 *   the SDK) checks `window.PublicKeyCredential`, reads
 *   `window.location.hostname` and calls `navigator.credentials.create/get`
 *   with ArrayBuffers. The stand-in hands those to the server's software
 *   authenticator (JSON in, JSON out) and gives the answer back in the
 *   browser's shape, so the SDK's own conversion runs on it.
 */
import type { SoftwareAuthenticator } from '../../packages/server/src/testing/software-authenticator.js';

/** Sets global `name` to `value` until the returned function puts back what was there. */
function setGlobal(name: string, value: unknown): () => void {
  const before = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  return () => {
    if (before) Object.defineProperty(globalThis, name, before);
    else delete (globalThis as Record<string, unknown>)[name];
  };
}

/** Runs `call` with global `prompt` answering `answer(message)`; returns the call's outcome and the prompts shown. */
export async function withPrompt<T>(
  answer: (message: string) => string | null,
  call: () => Promise<T>,
): Promise<{ outcome: T; prompts: string[] }> {
  const prompts: string[] = [];
  const restore = setGlobal('prompt', (message: string) => {
    prompts.push(message);
    return answer(message);
  });
  try {
    return { outcome: await call(), prompts };
  } finally {
    restore();
  }
}

/** What the page's `navigator.credentials` was asked, with the SDK's options as they reached it. */
interface CredentialCall {
  kind: 'create' | 'get';
  /** `publicKey` of the call's options (ArrayBuffers as the browser gets them). */
  // biome-ignore lint/suspicious/noExplicitAny: WebAuthn options as the browser library builds them.
  publicKey: any;
}

const text = (buffer: ArrayBuffer | Uint8Array) => Buffer.from(new Uint8Array(buffer)).toString('base64url');
const bytes = (base64url: string): ArrayBuffer => new Uint8Array(Buffer.from(base64url, 'base64url')).buffer;

/**
 * Runs `call` as on the page `href` of a browser whose platform authenticator
 * is `authenticator`. Returns the call's outcome and the
 * `navigator.credentials` calls it made.
 */
export async function onPasskeyPage<T>(
  href: string,
  authenticator: SoftwareAuthenticator,
  call: () => Promise<T>,
): Promise<{ outcome: T; credentialCalls: CredentialCall[] }> {
  const location = new URL(href);
  const credentialCalls: CredentialCall[] = [];
  const credentials = {
    // biome-ignore lint/suspicious/noExplicitAny: the browser library's creation options.
    async create({ publicKey }: { publicKey: any }) {
      credentialCalls.push({ kind: 'create', publicKey });
      const json = authenticator.register(
        { challenge: text(publicKey.challenge), user: { id: text(publicKey.user.id) } },
        { origin: location.origin, rpId: publicKey.rp.id },
      );
      return {
        id: json.id,
        rawId: bytes(json.rawId),
        type: json.type,
        authenticatorAttachment: json.authenticatorAttachment,
        getClientExtensionResults: () => ({}),
        response: {
          clientDataJSON: bytes(json.response.clientDataJSON),
          attestationObject: bytes(json.response.attestationObject),
          getTransports: () => json.response.transports,
        },
      };
    },
    // biome-ignore lint/suspicious/noExplicitAny: the browser library's request options.
    async get({ publicKey }: { publicKey: any }) {
      credentialCalls.push({ kind: 'get', publicKey });
      const json = authenticator.authenticate(
        { challenge: text(publicKey.challenge) },
        { origin: location.origin, rpId: publicKey.rpId },
      );
      return {
        id: json.id,
        rawId: bytes(json.rawId),
        type: json.type,
        authenticatorAttachment: json.authenticatorAttachment,
        getClientExtensionResults: () => ({}),
        response: {
          clientDataJSON: bytes(json.response.clientDataJSON),
          authenticatorData: bytes(json.response.authenticatorData),
          signature: bytes(json.response.signature),
          userHandle: bytes(json.response.userHandle),
        },
      };
    },
  };
  const window = {
    location: { href: location.href, origin: location.origin, hostname: location.hostname, search: location.search },
    PublicKeyCredential: function PublicKeyCredential() {},
  };
  const restoreWindow = setGlobal('window', window);
  const restoreNavigator = setGlobal('navigator', { credentials });
  try {
    return { outcome: await call(), credentialCalls };
  } finally {
    restoreNavigator();
    restoreWindow();
  }
}
