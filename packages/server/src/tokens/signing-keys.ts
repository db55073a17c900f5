/**
 * Per-project ES256 signing keys. A project's key pair is created the first
 * time it is needed; the private JWK is stored encrypted under the master
 * secret, the public JWK in clear for the JWKS. `kid` = the first 12
 * characters of the key's JWK thumbprint.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Clock } from '../common/clock.js';
import type { Sealer } from '../crypto/encryption.js';
import type { Db } from '../storage/db.js';
import {
  findActiveKey,
  findNewestActiveKey,
  findPublicKey,
  insertActiveKeyIfNone,
  listPublicKeys,
} from './signing-key-store.js';

/** The sealer purpose of private signing keys (`createSealer(secret, signingKeyPurpose)`). */
export const signingKeyPurpose = 'signing-keys';

/**
 * Whether the master secret opens the stored signing keys: `opened` (the
 * newest one decrypts), `no_keys` (none stored yet, nothing to check) or
 * `mismatch` (it does not decrypt: the secret differs from the one the keys
 * were created with).
 */
export type SecretCheck = 'opened' | 'no_keys' | 'mismatch';

/**
 * The master secret does not open the stored signing keys: the service was
 * given another secret than the one its data was created with.
 */
export class SecretMismatchError extends Error {
  override name = 'SecretMismatchError';
  readonly code = 'SECRET_MISMATCH';
}

/** Opens the newest stored signing key with `sealer` (one query, one decryption). */
export async function checkSecretOpensKeys(db: Db, sealer: Sealer): Promise<SecretCheck> {
  const row = await findNewestActiveKey(db);
  if (!row) return 'no_keys';
  try {
    sealer.open(row.sealedPrivateJwk, associatedData(row.projectId, row.kid));
    return 'opened';
  } catch {
    return 'mismatch';
  }
}

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

export interface VerificationKey {
  projectId: string;
  publicKey: CryptoKey;
}

/** A public JWK as published in the JWKS. */
export type PublicJwk = JWK & { kid: string; kty: string; alg: 'ES256'; use: 'sig' };

/** Looks up, creates and caches signing keys. Verification keys are cached by `kid`. */
export class SigningKeys {
  readonly #signing = new Map<string, Promise<SigningKey>>();
  readonly #verification = new Map<string, VerificationKey>();

  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
  ) {}

  /** The project's active signing key, created on first use. */
  signingKey(projectId: string): Promise<SigningKey> {
    let key = this.#signing.get(projectId);
    if (!key) {
      key = this.#loadOrCreate(projectId);
      this.#signing.set(projectId, key);
      key.catch(() => this.#signing.delete(projectId));
    }
    return key;
  }

  /** Whether this service's secret opens the stored keys (the readiness check). */
  checkSecret(): Promise<SecretCheck> {
    return checkSecretOpensKeys(this.db, this.sealer);
  }

  /** The public key for `kid` and the project it belongs to, or null. */
  async verificationKey(kid: string): Promise<VerificationKey | null> {
    const cached = this.#verification.get(kid);
    if (cached) return cached;
    const row = await findPublicKey(this.db, kid);
    if (!row) return null;
    const key = { projectId: row.projectId, publicKey: (await importJWK(row.publicJwk, 'ES256')) as CryptoKey };
    this.#verification.set(kid, key);
    return key;
  }

  /** The project's public keys (creating its key pair if needed). */
  async publicJwks(projectId: string): Promise<PublicJwk[]> {
    await this.signingKey(projectId);
    const rows = await listPublicKeys(this.db, projectId);
    return rows.map((row) => ({
      ...row.publicJwk,
      kty: row.publicJwk.kty ?? 'EC',
      kid: row.kid,
      alg: 'ES256',
      use: 'sig',
    }));
  }

  async #loadOrCreate(projectId: string): Promise<SigningKey> {
    const existing = await this.#loadActive(projectId);
    if (existing) return existing;
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = (await calculateJwkThumbprint(publicJwk)).slice(0, 12);
    const sealed = this.sealer.seal(JSON.stringify(await exportJWK(privateKey)), associatedData(projectId, kid));
    // Two instances may race here; the partial unique index keeps one active key per project.
    await insertActiveKeyIfNone(this.db, {
      projectId,
      kid,
      publicJwk,
      sealedPrivateJwk: sealed,
      createdAt: new Date(this.clock.now()),
    });
    const stored = await this.#loadActive(projectId);
    if (!stored) throw new Error(`no signing key for project ${projectId}`);
    return stored;
  }

  async #loadActive(projectId: string): Promise<SigningKey | null> {
    const row = await findActiveKey(this.db, projectId);
    if (!row) return null;
    let jwk: JWK;
    try {
      jwk = JSON.parse(this.sealer.open(row.sealedPrivateJwk, associatedData(projectId, row.kid)));
    } catch {
      throw new Error(
        `cannot decrypt the signing key of project ${projectId}: the master secret differs from the one it was created with`,
      );
    }
    return { kid: row.kid, privateKey: (await importJWK(jwk, 'ES256')) as CryptoKey };
  }
}

/** What binds a sealed private key to its project and key id. */
export function associatedData(projectId: string, kid: string): string {
  return `signing-key:${projectId}:${kid}`;
}
