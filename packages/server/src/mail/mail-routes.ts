/** The outbox as admins see it and the test e-mail (issue 8). */
import type { Route } from '../http/route.js';

export const mailRoutes: Route[] = [];
