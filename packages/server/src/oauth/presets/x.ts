/** X: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, requireId, text } from './preset.js';

export const x: PresetOf = () => ({
  displayName: 'X',
  authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
  tokenEndpoint: 'https://api.x.com/2/oauth2/token',
  clientAuth: 'basic',
  scopes: ['users.read', 'tweet.read', 'offline.access'],
  async profile(api) {
    const me = record(record(await api('https://api.x.com/2/users/me?user.fields=profile_image_url')).data);
    // X gives no e-mail address through this API.
    return {
      accountId: requireId(me.id, 'X'),
      email: null,
      emailVerified: false,
      displayName: text(me.name) ?? text(me.username),
      profileImageUrl: text(me.profile_image_url),
    };
  },
});
