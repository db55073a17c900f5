// Next 16 runs `proxy.ts` before every matched request (Next 15 named it `middleware.ts`).
import { latchkeyMiddleware } from '@latchkey/next/middleware';

export const proxy = latchkeyMiddleware({ protect: ['/protected'] });

export const config = { matcher: ['/((?!_next/|favicon.ico).*)'] };
