/**
 * The frame around every signed-in page: a sidebar with the project
 * switcher and the project's pages (a bar with a menu button below 800 px),
 * a header with the theme switch and the user button, and the page.
 */
import { ownedProjectsQuery } from '@latchkey/js/admin';
import { UserButton, useQuery } from '@latchkey/react';
import { type ReactNode, useEffect, useState } from 'react';
import { useOwner } from '../project.js';
import { Link, navigate, usePath } from '../router.js';
import { routes } from '../routes.js';

export interface ShellProps {
  /** The project the page is about (its pages are listed), or null on the projects list. */
  projectId: string | null;
  theme: string;
  onNextTheme: () => void;
  children: ReactNode;
}

const themeNames: Record<string, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };

export function Shell({ projectId, theme, onNextTheme, children }: ShellProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const path = usePath();
  // A page change closes the menu on small screens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each path
  useEffect(() => setMenuOpen(false), [path]);
  return (
    <div className="ld-shell">
      <a className="ld-skip" href="#main">
        Skip to content
      </a>
      <header className="ld-topbar">
        <button
          type="button"
          className="ld-menu-button"
          aria-expanded={menuOpen}
          aria-controls="ld-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <Link to="/" className="ld-brand">
          Latchkey
        </Link>
        <div className="ld-topbar-end">
          <button type="button" className="lk-button lk-button-secondary ld-button-small" onClick={onNextTheme}>
            {themeNames[theme] ?? 'Theme'}
          </button>
          <UserButton />
        </div>
      </header>
      <nav id="ld-sidebar" className="ld-sidebar" data-open={menuOpen} aria-label="Dashboard">
        <ProjectSwitcher projectId={projectId} />
        {projectId ? (
          <ul className="ld-nav">
            {routes
              .filter((route) => route.nav)
              .map((route) => {
                const to = route.pattern.replace(':projectId', encodeURIComponent(projectId));
                return (
                  <li key={route.pattern}>
                    <Link to={to} section={route.pattern !== '/projects/:projectId'}>
                      {route.nav}
                    </Link>
                  </li>
                );
              })}
          </ul>
        ) : null}
      </nav>
      <main id="main" className="ld-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** The owner's projects, to move between them; "All projects" lists and creates them. */
function ProjectSwitcher({ projectId }: { projectId: string | null }) {
  const owner = useOwner();
  const projects = useQuery(ownedProjectsQuery, { suspend: false, app: owner });
  return (
    <div className="ld-project-switcher">
      <Link to="/" className="ld-all-projects">
        All projects
      </Link>
      {projectId ? (
        <label className="ld-field-inline">
          <span className="ld-visually-hidden">Project</span>
          <select
            className="lk-input"
            value={projectId}
            onChange={(event) => navigate(`/projects/${encodeURIComponent(event.target.value)}`)}
          >
            {projects.status === 'ready' ? (
              projects.data.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.displayName}
                </option>
              ))
            ) : (
              <option value={projectId}>{projectId}</option>
            )}
          </select>
        </label>
      ) : null}
    </div>
  );
}
