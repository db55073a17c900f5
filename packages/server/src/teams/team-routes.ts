/** Teams, memberships and member profiles (wire-protocol §14.3). */
import type { Route } from '../http/route.js';

export const teamRoutes: readonly Route[] = [];
