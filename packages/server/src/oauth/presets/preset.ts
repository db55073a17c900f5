/**
 * What a provider preset is: data about one provider's public API (its
 * endpoints, default scopes, and how to read the person's profile), which the
 * shared client (`../providers.ts`) runs the protocol with. One file per
 * preset beside this one; `index.ts` lists them.
 */
import type { JWTPayload } from 'jose';
import type { ProjectConfig } from '../../projects/project-config.js';

/** Who the person is at the provider. */
export interface ProviderProfile {
  /** The provider's stable subject for the person. */
  accountId: string;
  email: string | null;
  /** True only when the provider says it checked the address. */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

/** A provider entry of the project config. */
export type ProviderConfig = ProjectConfig['oauth_providers'][number];

/** Reads the provider's API as the signed-in person: the JSON answer of `url`. */
export type Api = (url: string, accept?: string) => Promise<unknown>;

/** One provider's facts. */
interface Preset {
  displayName: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Set for presets whose ID token is read: its issuer and key set. */
  idToken?: { issuer: string; jwksUri: string };
  scopes: string[];
  /** Sent on every authorization request (offline access, response mode...). */
  authorizationParameters?: Record<string, string>;
  /** Client authentication at the token endpoint (default `client_secret_post`). */
  clientAuth?: 'basic' | 'post';
  profile(api: Api, claims: JWTPayload | undefined): Promise<ProviderProfile>;
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const idText = (value: unknown): string | null =>
  typeof value === 'number' ? String(value) : typeof value === 'string' && value !== '' ? value : null;
export const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(record) : []);
const isTrue = (value: unknown): boolean => value === true || value === 'true';

export function requireId(value: unknown, provider: string): string {
  const id = idText(value);
  if (!id) throw new Error(`${provider} answered a profile without an account id`);
  return id;
}

/** A profile read from OpenID Connect claims (ID token or userinfo). */
export function claimsProfile(claims: Record<string, unknown>, provider: string): ProviderProfile {
  return {
    accountId: requireId(claims.sub, provider),
    email: text(claims.email),
    emailVerified: text(claims.email) !== null && isTrue(claims.email_verified),
    displayName: text(claims.name) ?? text(claims.preferred_username),
    profileImageUrl: text(claims.picture),
  };
}

/** A preset: the provider's facts for one configured provider (a few depend on its config, e.g. Microsoft's tenant). */
export type PresetOf = (config: ProviderConfig) => Preset;
