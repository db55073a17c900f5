import type { ImportEmail, ImportOAuthAccount, ImportUser } from '../types.js';

/** A generic user record with every field not given empty (null, no e-mails, no accounts). */
export function user(fields: Partial<ImportUser> & { id: string }): ImportUser {
  return {
    type: 'user',
    emails: [],
    display_name: null,
    profile_image_url: null,
    password_hash: null,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    signed_up_at_millis: null,
    oauth: [],
    totp_secret_base32: null,
    teams: [],
    ...fields,
  };
}

/** Adds an address once (compared without case); a verified sighting wins over an unverified one. */
export function addEmail(emails: ImportEmail[], address: string | null, verified: boolean, primary = false): void {
  if (!address) return;
  const existing = emails.find((e) => e.address.toLowerCase() === address.toLowerCase());
  if (existing) {
    existing.verified ||= verified;
    existing.primary ||= primary;
    return;
  }
  emails.push({ address, verified, primary, used_for_auth: true });
}

/** Adds an OAuth account once per provider and account id. */
export function addOAuth(accounts: ImportOAuthAccount[], account: ImportOAuthAccount): void {
  if (!accounts.some((a) => a.provider === account.provider && a.account_id === account.account_id)) {
    accounts.push(account);
  }
}

const providerNames: Record<string, string> = {
  // Auth0 connection / provider names.
  'google-oauth2': 'google',
  windowslive: 'microsoft',
  // Firebase provider ids.
  'google.com': 'google',
  'github.com': 'github',
  'facebook.com': 'facebook',
  'apple.com': 'apple',
  'twitter.com': 'twitter',
  'microsoft.com': 'microsoft',
  'gitlab.com': 'gitlab',
  'linkedin.com': 'linkedin',
  // Supabase's provider names that differ from ours.
  azure: 'microsoft',
  linkedin_oidc: 'linkedin',
};

/** A source's OAuth provider name as the project's OAuth provider id (`google-oauth2` → `google`). */
export function providerId(name: string): string {
  return providerNames[name] ?? name;
}

/** The display name from first and last names, or null. */
export function fullName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter(Boolean).join(' ');
  return name === '' ? null : name;
}

/** Whether a string is a bcrypt MCF hash. */
export function isBcrypt(hash: string): boolean {
  return /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(hash);
}
