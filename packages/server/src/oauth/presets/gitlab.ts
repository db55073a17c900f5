/** GitLab: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, requireId, text } from './preset.js';

export const gitlab: PresetOf = () => ({
  displayName: 'GitLab',
  authorizationEndpoint: 'https://gitlab.com/oauth/authorize',
  tokenEndpoint: 'https://gitlab.com/oauth/token',
  scopes: ['read_user'],
  async profile(api) {
    const me = record(await api('https://gitlab.com/api/v4/user'));
    return {
      accountId: requireId(me.id, 'GitLab'),
      email: text(me.email),
      emailVerified: text(me.email) !== null && text(me.confirmed_at) !== null,
      displayName: text(me.name) ?? text(me.username),
      profileImageUrl: text(me.avatar_url),
    };
  },
});
