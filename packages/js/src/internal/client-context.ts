/** What the resource modules of a `ClientApp` share: pipeline, session, cache, URLs, navigation. */
import type { HandlerUrls } from '../urls.js';
import type { QueryCache } from './cache/query-cache.js';
import type { Send } from './http/request.js';
import type { Session } from './session/session.js';

export interface ClientContext {
  projectId: string;
  urls: HandlerUrls;
  session: Session;
  cache: QueryCache;
  /** Sends with the publishable key and the session's tokens. */
  send: Send;
  /** Sends with the publishable key only. */
  sendWithoutSession: Send;
  /** Validated navigation (spec §2). */
  redirect(target: string): Promise<void>;
}

/** Cache keys. */
export const cacheKeys = { user: 'user', project: 'project' } as const;
