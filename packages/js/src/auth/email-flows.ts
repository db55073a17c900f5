/**
 * The code of `ClientApp`'s e-mail flows (spec §7), loaded on the first call
 * of one (`client-email-flows.ts`): over the sends of `email-codes.ts` that
 * the server-side audiences share; callback URLs default to the handler
 * pages in browsers.
 */
import { afterAuthReturnToParam } from '@latchkey/protocol';
import { contactChannelsQuery } from '../contact-channels/contact-channel.js';
import { callbackUrl } from '../internal/callback-url.js';
import { withQueryParam } from '../internal/redirect.js';
import type { ClientEmailFlows } from './client-email-flows.js';
import { completeSignIn, pageReturnTo } from './client-sign-in.js';
import type { WithScope } from './deferred.js';
import {
  checkPasswordResetCode,
  resetPasswordWithCode,
  sendMagicLinkCode,
  sendPasswordResetCode,
  signInWithMagicLinkCode,
  verifyEmailCode,
} from './email-codes.js';

/** The e-mail flows, by name. */
export const methods: WithScope<ClientEmailFlows> = {
  async sendForgotPasswordEmail(scope, email, options = {}) {
    const url = callbackUrl('sendForgotPasswordEmail', scope.core.urls.passwordReset, options.callbackUrl);
    await sendPasswordResetCode(scope.sendAsApp, email, url);
  },
  verifyPasswordResetCode: (scope, code) => checkPasswordResetCode(scope.sendAsApp, code),
  resetPassword: (scope, options) => resetPasswordWithCode(scope.sendAsApp, options.code, options.password),
  async verifyEmail(scope, code) {
    await verifyEmailCode(scope.sendAsApp, code);
    if (!scope.core.session.stored().refreshToken) return;
    void scope.data.invalidate(contactChannelsQuery.key);
    await scope.reloadUser();
  },
  async sendMagicLinkEmail(scope, email, options = {}) {
    let url = callbackUrl('sendMagicLinkEmail', scope.core.urls.magicLinkCallback, options.callbackUrl);
    // The default link takes the page's return-to along, so the link ends where a typed code would.
    const returnTo = options.callbackUrl ? null : pageReturnTo();
    if (returnTo) url = new URL(withQueryParam(url, afterAuthReturnToParam, returnTo, new URL(url).origin), url).href;
    return sendMagicLinkCode(scope.sendAsApp, email, url);
  },
  async signInWithMagicLink(scope, code, options = {}) {
    const tokens = await signInWithMagicLinkCode(scope.sendSignIn, code);
    return completeSignIn(scope, tokens, options.noRedirect);
  },
};
