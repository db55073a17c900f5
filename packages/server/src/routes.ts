/**
 * Every route of the API, in one list: the service serves it and the OpenAPI
 * document describes it. A feature adds its routes here.
 */
import { apiKeyRoutes } from './api-keys/api-keys-routes.js';
import { auditRoutes } from './audit/audit-routes.js';
import { contactChannelRoutes } from './contact-channels/contact-channels-routes.js';
import { emailTemplateRoutes } from './email-templates/email-templates-routes.js';
import { healthRoutes } from './health/health-routes.js';
import type { Route } from './http/route.js';
import { invitationRoutes } from './invitations/invitations-routes.js';
import { mailRoutes } from './mail/mail-routes.js';
import { metaRoutes } from './meta/meta-routes.js';
import { metricsRoutes } from './metrics/metrics-routes.js';
import { mfaRoutes } from './mfa/mfa-routes.js';
import { devProviderRoutes } from './oauth/dev-provider.js';
import { connectedAccountRoutes } from './oauth/oauth-connected-accounts-routes.js';
import { oauthFlowRoutes } from './oauth/oauth-flow.js';
import { otpRoutes } from './otp/otp-routes.js';
import { passkeyRoutes } from './passkeys/passkeys-routes.js';
import { passwordAccountRoutes } from './password/password-reset-routes.js';
import { passwordRoutes } from './password/password-routes.js';
import { permissionRoutes } from './permissions/permissions-routes.js';
import { ownedProjectRoutes } from './projects/projects-owned-routes.js';
import { projectRoutes } from './projects/projects-routes.js';
import { sessionRoutes } from './sessions/sessions-routes.js';
import { teamRoutes } from './teams/teams-routes.js';
import { tokenRoutes } from './tokens/tokens-routes.js';
import { userRoutes } from './users/users-routes.js';
import { webhookEndpointRoutes } from './webhooks/webhooks-endpoints-routes.js';
import { webhookMessageRoutes } from './webhooks/webhooks-messages-routes.js';

/** The routes below `/api/v1`. */
export const apiRoutes: readonly Route[] = [
  ...passwordRoutes,
  ...passwordAccountRoutes,
  ...otpRoutes,
  ...mfaRoutes,
  ...contactChannelRoutes,
  ...sessionRoutes,
  ...tokenRoutes,
  ...oauthFlowRoutes,
  ...devProviderRoutes,
  ...connectedAccountRoutes,
  ...userRoutes,
  ...teamRoutes,
  ...permissionRoutes,
  ...invitationRoutes,
  ...projectRoutes,
  ...ownedProjectRoutes,
  ...apiKeyRoutes,
  ...auditRoutes,
  ...webhookEndpointRoutes,
  ...emailTemplateRoutes,
  ...mailRoutes,
  ...metricsRoutes,
  ...healthRoutes,
  ...passkeyRoutes,
  ...webhookMessageRoutes,
  ...metaRoutes(() => apiRoutes),
];
