/** Spotify: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, records, requireId, text } from './preset.js';

export const spotify: PresetOf = () => ({
  displayName: 'Spotify',
  authorizationEndpoint: 'https://accounts.spotify.com/authorize',
  tokenEndpoint: 'https://accounts.spotify.com/api/token',
  scopes: ['user-read-email', 'user-read-private'],
  async profile(api) {
    const me = record(await api('https://api.spotify.com/v1/me'));
    return {
      accountId: requireId(me.id, 'Spotify'),
      email: text(me.email),
      emailVerified: false,
      displayName: text(me.display_name),
      profileImageUrl: text(records(me.images)[0]?.url),
    };
  },
});
