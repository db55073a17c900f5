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
  children?: ReactNode;
}

/** One app per page in the browser (kept across client-side navigations); one per render on the server. */
let browserApp: ClientApp | null = null;

export function ClientProvider({ config, urls, initialUser, children, ...props }: ClientProviderProps) {
  const [app] = useState(() => {
    const make = () => new ClientApp({ ...config, urls, tokenStore: 'cookie', initialUser });
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
