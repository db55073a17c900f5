/** Apple: its OAuth endpoints, default scopes and profile. */
import { claimsProfile, type PresetOf, record } from './preset.js';

export const apple: PresetOf = () => ({
  displayName: 'Apple',
  authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
  tokenEndpoint: 'https://appleid.apple.com/auth/token',
  idToken: { issuer: 'https://appleid.apple.com', jwksUri: 'https://appleid.apple.com/auth/keys' },
  scopes: ['name', 'email'],
  // Apple posts the callback when name or e-mail is asked for.
  authorizationParameters: { response_mode: 'form_post' },
  profile: async (_api, claims) => claimsProfile(record(claims), 'Apple'),
});
