'use client';
/**
 * `LatchkeyProvider` puts a `ClientApp`, the look of the components and their
 * words (`labels`, `messages`) in React context; `useApp` reads the app back.
 * `LatchkeyDataProvider` puts any audience (`AdminApp`, `ServerApp`,
 * `ProjectOwnerApp`, or another `ClientApp`) in context for `useQuery`.
 */
import type { ClientApp, QueryAccess } from '@latchkey/js';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { TextContext, useText } from './internal/text.js';
import type { LatchkeyTranslation } from './labels.js';

/**
 * Colour theme of Latchkey components. `system` follows the visitor's OS setting.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app} theme="dark">…</LatchkeyProvider>
 * ```
 */
export type LatchkeyTheme = 'light' | 'dark' | 'system';

interface LatchkeyContextValue {
  app: ClientApp;
  theme: LatchkeyTheme;
  projectName: string | undefined;
  logo: ReactNode;
}

const LatchkeyContext = createContext<LatchkeyContextValue | null>(null);

/**
 * Props of `LatchkeyProvider`.
 *
 * @example
 * ```tsx
 * const props: LatchkeyProviderProps = { app, theme: 'system', projectName: 'Acme', labels: { signInSubmit: 'Continue' } };
 * ```
 */
export interface LatchkeyProviderProps extends LatchkeyTranslation {
  /** The SDK app every hook and component below uses. */
  app: ClientApp;
  /** Colour theme of Latchkey components (default `system`). */
  theme?: LatchkeyTheme;
  /**
   * Your app's name, shown in page titles ("Sign in to Acme"); default: the project's display name as the
   * service reports it.
   */
  projectName?: string;
  /**
   * Your app's logo (an `<img>` or `<svg>` with its own accessible name or `alt=""`), shown at the top of the
   * sign-in, sign-up and other pages that would show the default lock.
   */
  logo?: ReactNode;
  children?: ReactNode;
}

/**
 * Makes `app` available to Latchkey hooks and components. `labels` and
 * `messages` reword or translate every component below (a page's own props
 * of the same names win over them).
 *
 * @example
 * ```tsx
 * const app = new ClientApp({ projectId, publishableClientKey, baseUrl, tokenStore: 'cookie' });
 * createRoot(el).render(
 *   <LatchkeyProvider app={app} theme="system" projectName="Acme" logo={<img src="/logo.svg" alt="" />} labels={{ signUpLink: 'Join Acme' }}>
 *     <App />
 *   </LatchkeyProvider>,
 * );
 * ```
 */
export function LatchkeyProvider({
  app,
  theme = 'system',
  projectName,
  logo,
  labels,
  messages,
  children,
}: LatchkeyProviderProps) {
  const value = useMemo(() => ({ app, theme, projectName, logo }), [app, theme, projectName, logo]);
  const text = useText({ labels, messages });
  return (
    <LatchkeyContext.Provider value={value}>
      <TextContext.Provider value={text}>{children}</TextContext.Provider>
    </LatchkeyContext.Provider>
  );
}

/**
 * The app given to the nearest `LatchkeyProvider`. Throws outside of one.
 *
 * @example
 * ```tsx
 * function SignInLink() {
 *   const app = useApp();
 *   return <a href={app.urls.signIn}>Sign in</a>;
 * }
 * ```
 */
export function useApp(): ClientApp {
  return useLatchkeyContext().app;
}

/** Internal: the whole context (theme, project name and logo included). */
export function useLatchkeyContext(): LatchkeyContextValue {
  const value = useContext(LatchkeyContext);
  if (!value) throw new Error('Latchkey hooks and components must be used inside <LatchkeyProvider app={...}>.');
  return value;
}

/** Internal: the context, or null outside a provider. */
export function useOptionalLatchkeyContext(): LatchkeyContextValue | null {
  return useContext(LatchkeyContext);
}

/** Any audience, as far as `useQuery` uses it: each has these three methods for its own queries. */
type AnyAudience = Pick<QueryAccess<never>, 'load' | 'subscribe' | 'getSnapshot'>;

/** The audience `useQuery` runs queries on when given no `app`. */
const DataAppContext = createContext<QueryAccess<unknown> | null>(null);

/**
 * Props of `LatchkeyDataProvider`.
 *
 * @example
 * ```tsx
 * const props: LatchkeyDataProviderProps = { app: adminApp };
 * ```
 */
export interface LatchkeyDataProviderProps {
  /** Any audience (`ClientApp`, `ServerApp`, `AdminApp`, `ProjectOwnerApp`): `useQuery` below runs its queries on it. */
  app: AnyAudience;
  children?: ReactNode;
}

/**
 * Makes `app` (any audience) the one `useQuery` runs queries on below it,
 * without replacing the `ClientApp` of `LatchkeyProvider`, which the
 * components and `useUser` keep using. A dashboard has both: the signed-in
 * owner's `ClientApp` for its pages, an `AdminApp` for the project it shows.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={dashboardApp}>
 *   <LatchkeyDataProvider app={owner.adminApp(projectId)}>
 *     <KeySets />
 *   </LatchkeyDataProvider>
 * </LatchkeyProvider>
 * // function KeySets() { const sets = useQuery(apiKeySetsQuery, { suspend: true }); ... }
 * ```
 */
export function LatchkeyDataProvider({ app, children }: LatchkeyDataProviderProps) {
  return <DataAppContext.Provider value={app as QueryAccess<unknown>}>{children}</DataAppContext.Provider>;
}

/** Internal: the nearest `LatchkeyDataProvider`'s audience, else the `LatchkeyProvider`'s app. */
export function useDataApp(): QueryAccess<unknown> {
  const data = useContext(DataAppContext);
  const latchkey = useOptionalLatchkeyContext();
  const app = data ?? latchkey?.app;
  if (!app)
    throw new Error('useQuery needs an `app` option, a <LatchkeyDataProvider> or a <LatchkeyProvider> above it.');
  return app as unknown as QueryAccess<unknown>;
}
