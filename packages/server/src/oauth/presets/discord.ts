/** Discord: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, requireId, text } from './preset.js';

export const discord: PresetOf = () => ({
  displayName: 'Discord',
  authorizationEndpoint: 'https://discord.com/oauth2/authorize',
  tokenEndpoint: 'https://discord.com/api/oauth2/token',
  scopes: ['identify', 'email'],
  async profile(api) {
    const me = record(await api('https://discord.com/api/users/@me'));
    const id = requireId(me.id, 'Discord');
    const avatar = text(me.avatar);
    return {
      accountId: id,
      email: text(me.email),
      emailVerified: me.verified === true && text(me.email) !== null,
      displayName: text(me.global_name) ?? text(me.username),
      profileImageUrl: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
    };
  },
});
