/** Team invitations (wire-protocol §14.5). */
import type { Route } from '../http/route.js';

export const invitationRoutes: readonly Route[] = [];
