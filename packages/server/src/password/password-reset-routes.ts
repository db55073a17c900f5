/** Password reset, change and set (wire-protocol §14.1). */
import type { Route } from '../http/route.js';

export const passwordAccountRoutes: Route[] = [];
