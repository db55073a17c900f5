/** Team permissions and their definitions (wire-protocol §14.4). */
import type { Route } from '../http/route.js';

export const permissionRoutes: readonly Route[] = [];
