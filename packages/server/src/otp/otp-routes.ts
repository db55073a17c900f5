/** Magic link / one-time code sign-in (wire-protocol §14.1, §12). */
import type { Route } from '../http/route.js';

export const otpRoutes: Route[] = [];
