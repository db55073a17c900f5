/** Contact channels and e-mail verification (wire-protocol §14.6). */
import type { Route } from '../http/route.js';

export const contactChannelRoutes: Route[] = [];
