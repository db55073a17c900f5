/** Facebook: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, requireId, text } from './preset.js';

export const facebook: PresetOf = (config) => ({
  displayName: 'Facebook',
  authorizationEndpoint: 'https://www.facebook.com/v19.0/dialog/oauth',
  tokenEndpoint: 'https://graph.facebook.com/v19.0/oauth/access_token',
  scopes: config.facebook_config_id ? [] : ['email', 'public_profile'],
  ...(config.facebook_config_id ? { authorizationParameters: { config_id: config.facebook_config_id } } : {}),
  async profile(api) {
    const me = record(await api('https://graph.facebook.com/me?fields=id,name,email,picture'));
    return {
      accountId: requireId(me.id, 'Facebook'),
      email: text(me.email),
      emailVerified: false,
      displayName: text(me.name),
      profileImageUrl: text(record(record(me.picture).data).url),
    };
  },
});
