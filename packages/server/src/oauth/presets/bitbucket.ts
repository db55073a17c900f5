/** Bitbucket: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, records, requireId, text } from './preset.js';

export const bitbucket: PresetOf = () => ({
  displayName: 'Bitbucket',
  authorizationEndpoint: 'https://bitbucket.org/site/oauth2/authorize',
  tokenEndpoint: 'https://bitbucket.org/site/oauth2/access_token',
  clientAuth: 'basic',
  scopes: ['account', 'email'],
  async profile(api) {
    const me = record(await api('https://api.bitbucket.org/2.0/user'));
    const emails = records(record(await api('https://api.bitbucket.org/2.0/user/emails')).values);
    const primary = emails.find((e) => e.is_primary === true);
    return {
      accountId: requireId(me.uuid ?? me.account_id, 'Bitbucket'),
      email: text(primary?.email),
      emailVerified: primary?.is_confirmed === true && text(primary.email) !== null,
      displayName: text(me.display_name),
      profileImageUrl: text(record(record(me.links).avatar).href),
    };
  },
});
