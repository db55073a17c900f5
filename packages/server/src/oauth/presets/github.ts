/** GitHub: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, records, requireId, text } from './preset.js';

export const github: PresetOf = () => ({
  displayName: 'GitHub',
  authorizationEndpoint: 'https://github.com/login/oauth/authorize',
  tokenEndpoint: 'https://github.com/login/oauth/access_token',
  scopes: ['read:user', 'user:email'],
  async profile(api) {
    const user = record(await api('https://api.github.com/user', 'application/vnd.github+json'));
    // The public e-mail of the profile is whatever the person typed; only the e-mails API says which is verified.
    const emails = records(await api('https://api.github.com/user/emails', 'application/vnd.github+json'));
    const primary = emails.find((e) => e.primary === true);
    return {
      accountId: requireId(user.id, 'GitHub'),
      email: text(primary?.email),
      emailVerified: primary?.verified === true && text(primary.email) !== null,
      displayName: text(user.name) ?? text(user.login),
      profileImageUrl: text(user.avatar_url),
    };
  },
});
