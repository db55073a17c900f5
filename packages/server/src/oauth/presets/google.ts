/** Google: its OAuth endpoints, default scopes and profile. */
import { claimsProfile, type PresetOf, record } from './preset.js';

export const google: PresetOf = () => ({
  displayName: 'Google',
  authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenEndpoint: 'https://oauth2.googleapis.com/token',
  idToken: { issuer: 'https://accounts.google.com', jwksUri: 'https://www.googleapis.com/oauth2/v3/certs' },
  scopes: ['openid', 'email', 'profile'],
  authorizationParameters: { access_type: 'offline', prompt: 'consent' },
  profile: async (_api, claims) => claimsProfile(record(claims), 'Google'),
});
