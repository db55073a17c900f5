/** Microsoft: its OAuth endpoints, default scopes and profile. */
import { type PresetOf, record, requireId, text } from './preset.js';

export const microsoft: PresetOf = (config) => {
  const tenant = config.microsoft_tenant_id ?? 'common';
  return {
    displayName: 'Microsoft',
    authorizationEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`,
    tokenEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
    scopes: ['User.Read', 'offline_access'],
    async profile(api) {
      const me = record(await api('https://graph.microsoft.com/v1.0/me'));
      // Microsoft accounts carry addresses nobody proved (work accounts can type any): never verified.
      return {
        accountId: requireId(me.id, 'Microsoft'),
        email: text(me.mail) ?? text(me.userPrincipalName),
        emailVerified: false,
        displayName: text(me.displayName),
        profileImageUrl: null,
      };
    },
  };
};
