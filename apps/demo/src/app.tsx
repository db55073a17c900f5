/** The demo's shell: header with navigation and the user button, the routed page, and a footer. */
import type { ClientApp } from '@latchkey/js';
import { Handler, LatchkeyProvider, SelectedTeamSwitcher, Spinner, UserButton } from '@latchkey/react';
import { type ReactNode, Suspense, useEffect, useId, useState } from 'react';
import { Home } from './pages/home.js';
import { NotFound } from './pages/not-found.js';
import { Protected } from './pages/protected.js';
import { Link, usePathname } from './router.js';
import { useTheme } from './theme.js';

/** The host app's name: the pages' titles say it ("Sign in to Latchkey demo"), beside its logo. */
const appName = 'Latchkey demo';

export function App({ app }: { app: ClientApp }) {
  const [theme, nextTheme] = useTheme();
  const pathname = usePathname();
  const isHandler = pathname === app.urls.handler || pathname.startsWith(`${app.urls.handler}/`);

  useEffect(() => {
    document.title = `${titleOf(pathname, isHandler)} · ${appName}`;
  }, [pathname, isHandler]);

  return (
    <LatchkeyProvider app={app} theme={theme} projectName={appName} logo={<Logo />}>
      <Shell
        pathname={pathname}
        menuEnd={
          <>
            <Suspense fallback={null}>
              <SelectedTeamSwitcher />
            </Suspense>
            <ThemeToggle theme={theme} onChange={nextTheme} />
          </>
        }
        headerEnd={<UserButton />}
      >
        <Suspense fallback={<PageLoading />}>
          {isHandler ? (
            <Handler />
          ) : pathname === '/' ? (
            <Home />
          ) : pathname === '/protected' ? (
            <Protected />
          ) : (
            <NotFound />
          )}
        </Suspense>
      </Shell>
    </LatchkeyProvider>
  );
}

function titleOf(pathname: string, isHandler: boolean): string {
  if (pathname === '/') return 'Home';
  if (pathname === '/protected') return 'Protected page';
  if (!isHandler) return 'Not found';
  if (pathname.endsWith('/sign-in')) return 'Sign in';
  if (pathname.endsWith('/sign-up')) return 'Sign up';
  if (pathname.endsWith('/sign-out')) return 'Signing out';
  if (pathname.endsWith('/forgot-password')) return 'Forgot password';
  if (pathname.endsWith('/password-reset')) return 'Reset password';
  if (pathname.endsWith('/email-verification')) return 'Verify e-mail';
  if (pathname.endsWith('/magic-link-callback') || pathname.endsWith('/oauth-callback')) return 'Signing in';
  if (pathname.endsWith('/team-invitation')) return 'Team invitation';
  if (pathname.endsWith('/account-settings')) return 'Account settings';
  return 'Account';
}

interface ShellProps {
  pathname?: string;
  /** In the header's menu, after the navigation (on a small screen the menu folds behind a button). */
  menuEnd?: ReactNode;
  /** At the header's end, always shown. */
  headerEnd?: ReactNode;
  children: ReactNode;
}

function Shell({ pathname, menuEnd, headerEnd, children }: ShellProps) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  // Going to another page folds the menu again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div className="demo-shell">
      <a className="demo-skip" href="#main">
        Skip to content
      </a>
      <header className="demo-header">
        <div className="demo-header-inner">
          <a className="demo-brand" href="/">
            <Logo />
            <span>Latchkey demo</span>
          </a>
          <button
            type="button"
            className="demo-icon-button demo-menu-button"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label="Menu"
            onClick={() => setOpen((was) => !was)}
          >
            <MenuIcon open={open} />
          </button>
          <div className="demo-menu" id={menuId} data-open={open || undefined}>
            <nav className="demo-nav" aria-label="Main">
              <Link to="/">Home</Link>
              <Link to="/protected">Protected</Link>
            </nav>
            {menuEnd ? <div className="demo-menu-end">{menuEnd}</div> : null}
          </div>
          <div className="demo-header-end">{headerEnd}</div>
        </div>
      </header>
      <main className="demo-main" id="main">
        {children}
      </main>
      <footer className="demo-footer">
        <p>Latchkey demo · a small host app on its own origin, signing people in through a Latchkey service.</p>
      </footer>
    </div>
  );
}

function PageLoading() {
  return (
    <div className="demo-loading" role="status">
      <Spinner />
      Loading…
    </div>
  );
}

/** Shown when the demo cannot start (no configuration, bad keys). */
export function StartupError({ error }: { error: unknown }) {
  return (
    <Shell>
      <section className="demo-panel demo-panel-narrow" aria-labelledby="startup-title">
        <h1 id="startup-title">The demo could not start</h1>
        <p className="demo-muted">{error instanceof Error ? error.message : String(error)}</p>
        <p className="demo-muted">
          Serve the built demo with <code>apps/demo/serve.mjs</code> (or run <code>npm start</code>), which provides{' '}
          <code>/latchkey-config.json</code>.
        </p>
      </section>
    </Shell>
  );
}

function Logo() {
  return (
    <svg className="demo-logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <g fill="none" stroke="var(--demo-on-accent)" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round">
        <rect x="9" y="14.5" width="14" height="10" rx="2" />
        <path d="M12 14.5v-3a4 4 0 0 1 8 0v3" />
      </g>
    </svg>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <path strokeLinecap="round" d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} />
    </svg>
  );
}

function ThemeToggle({ theme, onChange }: { theme: string; onChange: () => void }) {
  return (
    <button
      type="button"
      className="demo-icon-button"
      onClick={onChange}
      aria-label={`Colour theme: ${theme}. Change theme`}
      title={`Theme: ${theme}`}
    >
      <ThemeIcon theme={theme} />
    </button>
  );
}

function ThemeIcon({ theme }: { theme: string }) {
  const common = {
    width: 18,
    height: 18,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinecap: 'round' as const,
  };
  if (theme === 'light') {
    return (
      <svg aria-hidden="true" {...common}>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2.5v2M12 19.5v2M2.5 12h2M19.5 12h2M5.3 5.3l1.4 1.4M17.3 17.3l1.4 1.4M5.3 18.7l1.4-1.4M17.3 6.7l1.4-1.4" />
      </svg>
    );
  }
  if (theme === 'dark') {
    return (
      <svg aria-hidden="true" {...common}>
        <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" {...common}>
      <rect x="3" y="4.5" width="18" height="12" rx="2" />
      <path d="M8.5 20h7M12 16.5V20" />
    </svg>
  );
}
