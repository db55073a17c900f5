'use client';
/**
 * The client side of `@latchkey/next`: the browser's `ClientApp` (cookie
 * token store) started with the user the server rendered, put in
 * `@latchkey/react`'s provider. Rendered by `server.tsx`'s `LatchkeyProvider`,
 * never imported by the app.
 */
import { ClientApp, type HandlerUrls, type UserData } from '@latchkey/js';
import { LatchkeyProvider, type LatchkeyProviderProps } from '@latchkey/react';
import { type ReactNode, useState } from 'react';
import type { LatchkeyConfig } from './config.js';

/** What the server hands the browser: nothing secret. */
export interface ClientProviderProps extends Omit<LatchkeyProviderProps, 'app'> {
  config: LatchkeyConfig;
  urls?: Partial<HandlerUrls>;
  /** The user the server saw (client view only), or `null`. */
  initialUser: UserData | null;
  /** The browser's token store: the readable cookies (default), or the service's HttpOnly cookie on this origin. */
  tokenStore?: 'cookie' | 'httponly-cookie';
  children?: ReactNode;
}

/** One app per page in the browser (kept across client-side navigations); one per render on the server. */
let browserApp: ClientApp | null = null;

export function ClientProvider({ config, urls, initialUser, tokenStore, children, ...props }: ClientProviderProps) {
  const [app] = useState(() => {
    // The HttpOnly cookie mode talks to the service through this origin (where the service's cookie lives).
    const local = tokenStore === 'httponly-cookie' && typeof window !== 'undefined';
    const baseUrl = local ? window.location.origin : config.baseUrl;
    const make = () => new ClientApp({ ...config, baseUrl, urls, tokenStore: tokenStore ?? 'cookie', initialUser });
    if (typeof window === 'undefined') return make();
    browserApp ??= make();
    return browserApp;
  });
  return (
    <LatchkeyProvider app={app} {...props}>
      {children}
    </LatchkeyProvider>
  );
}
