/** E-mail templates (wire-protocol §14.7, §15.8). */
import type { Route } from '../http/route.js';

export const emailTemplateRoutes: Route[] = [];
