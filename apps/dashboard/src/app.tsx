/**
 * The dashboard: the internal project's provider, the sign-in screen for
 * visitors (in development, one click signs the dev owner in), and for an
 * owner the shell (sidebar of the project's pages, header) around the page
 * the path names. Auth pages of the internal project (`handler/…`: OAuth and
 * magic-link callbacks, password reset) are served by `<Handler>`.
 */
import type { ClientApp } from '@latchkey/js';
import { BusyButton, errorText, Handler, LatchkeyProvider, SignIn, useApp, useUser } from '@latchkey/react';
import { type ReactNode, Suspense, useState } from 'react';
import type { DashboardConfig } from './config.js';
import { OwnerProvider, ProjectProvider } from './project.js';
import { matchPath, usePath } from './router.js';
import { routes } from './routes.js';
import { Shell } from './shell/shell.js';
import { useTheme } from './theme.js';
import { Boundary } from './ui/boundary.js';
import { PageHeader } from './ui/page.js';
import { Loading } from './ui/states.js';

export function App({ app, config }: { app: ClientApp; config: DashboardConfig }) {
  const [theme, nextTheme] = useTheme();
  const path = usePath();
  return (
    <LatchkeyProvider app={app} theme={theme} projectName="Latchkey dashboard">
      <Suspense fallback={<Loading />}>
        {path === '/handler' || path.startsWith('/handler/') ? (
          <main className="ld-auth-screen">
            <Handler />
          </main>
        ) : (
          <SignedIn config={config} theme={theme} onNextTheme={nextTheme} path={path} />
        )}
      </Suspense>
    </LatchkeyProvider>
  );
}

function SignedIn({
  config,
  theme,
  onNextTheme,
  path,
}: {
  config: DashboardConfig;
  theme: string;
  onNextTheme: () => void;
  path: string;
}) {
  const user = useUser();
  if (!user) return <SignInScreen config={config} />;
  const found = findRoute(path);
  return (
    <OwnerProvider session={user} publishableClientKey={config.internalPublishableClientKey}>
      <Shell projectId={found?.params.projectId ?? null} theme={theme} onNextTheme={onNextTheme}>
        <Routed found={found} path={path} />
      </Shell>
    </OwnerProvider>
  );
}

function findRoute(path: string) {
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

function Routed({ found, path }: { found: ReturnType<typeof findRoute>; path: string }) {
  if (!found) {
    return <PageHeader title="Page not found" description="There is no dashboard page at this address." />;
  }
  const { route, params } = found;
  const Page = route.page;
  const page = (
    <Boundary resetKey={path}>
      <Page params={params} />
    </Boundary>
  );
  return params.projectId ? <ProjectProvider projectId={params.projectId}>{page}</ProjectProvider> : page;
}

/** Visitors: the internal project's sign-in, and in development the dev owner in one click. */
function SignInScreen({ config }: { config: DashboardConfig }) {
  return (
    <main className="ld-auth-screen">
      {config.devOwner ? <DevOwnerSignIn owner={config.devOwner} /> : null}
      <SignIn projectName="Latchkey dashboard" />
    </main>
  );
}

function DevOwnerSignIn({ owner }: { owner: { email: string; password: string } }) {
  const app = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="ld-card ld-dev-sign-in" aria-labelledby="dev-sign-in">
      {/* Not a heading: the sign-in card below holds the page's one h1. */}
      <p id="dev-sign-in" className="ld-state-title">
        Development
      </p>
      <p className="ld-muted">
        This service runs in development. Sign in as the owner of the development project, {owner.email}.
      </p>
      <div className="lk-alert-region" role="alert">
        {error ? <p className="lk-alert">{error}</p> : null}
      </div>
      <BusyButton
        type="button"
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await app.signInWithCredential({ email: owner.email, password: owner.password, noRedirect: true });
          } catch (failure) {
            setError(errorText(failure, undefined));
          } finally {
            setBusy(false);
          }
        }}
      >
        Continue as {owner.email}
      </BusyButton>
    </section>
  );
}

/** Shown when the page could not start (its config did not load). */
export function StartupError({ error }: { error: unknown }): ReactNode {
  return (
    <main className="ld-auth-screen">
      <section className="ld-card" role="alert">
        <h1>The dashboard could not start</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        <p className="ld-muted">Is the Latchkey service running? Reload the page to try again.</p>
      </section>
    </main>
  );
}
