/** LinkedIn: its OAuth endpoints, default scopes and profile. */
import { claimsProfile, type PresetOf, record } from './preset.js';

export const linkedin: PresetOf = () => ({
  displayName: 'LinkedIn',
  authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
  tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
  idToken: { issuer: 'https://www.linkedin.com/oauth', jwksUri: 'https://www.linkedin.com/oauth/openid/jwks' },
  scopes: ['openid', 'profile', 'email'],
  profile: async (_api, claims) => claimsProfile(record(claims), 'LinkedIn'),
});
