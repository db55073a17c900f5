/**
 * Every page of the dashboard, once: its path, its title and its code, each
 * page a chunk of its own loaded when first shown. The sidebar lists the
 * project pages marked `nav`, in this order.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** What a page is given: the parameters of its path. */
export interface PageProps {
  params: Record<string, string>;
}

export interface RouteDef {
  /** Dashboard-relative, with `:name` parameters. */
  pattern: string;
  title: string;
  page: LazyExoticComponent<ComponentType<PageProps>>;
  /** A project page listed in the sidebar (its label; the pattern is its link). */
  nav?: string;
}

const page = (load: () => Promise<{ default: ComponentType<PageProps> }>) => lazy(load);

export const routes: RouteDef[] = [
  { pattern: '/', title: 'Projects', page: page(() => import('./pages/projects/projects-page.js')) },
  {
    pattern: '/projects/:projectId',
    title: 'Overview',
    nav: 'Overview',
    page: page(() => import('./pages/overview/overview-page.js')),
  },
  {
    pattern: '/projects/:projectId/users',
    title: 'Users',
    nav: 'Users',
    page: page(() => import('./pages/users/users-page.js')),
  },
  {
    pattern: '/projects/:projectId/users/:userId',
    title: 'User',
    page: page(() => import('./pages/users/user-page.js')),
  },
  {
    pattern: '/projects/:projectId/teams',
    title: 'Teams',
    nav: 'Teams',
    page: page(() => import('./pages/teams/teams-page.js')),
  },
  {
    pattern: '/projects/:projectId/teams/:teamId',
    title: 'Team',
    page: page(() => import('./pages/teams/team-page.js')),
  },
  {
    pattern: '/projects/:projectId/permissions',
    title: 'Permissions',
    nav: 'Permissions',
    page: page(() => import('./pages/permissions/permissions-page.js')),
  },
  {
    pattern: '/projects/:projectId/sign-in-methods',
    title: 'Sign-in methods',
    nav: 'Sign-in methods',
    page: page(() => import('./pages/sign-in-methods/sign-in-methods-page.js')),
  },
  {
    pattern: '/projects/:projectId/domains',
    title: 'Domains',
    nav: 'Domains',
    page: page(() => import('./pages/domains/domains-page.js')),
  },
  {
    pattern: '/projects/:projectId/emails',
    title: 'E-mail',
    nav: 'E-mail',
    page: page(() => import('./pages/emails/emails-page.js')),
  },
  {
    pattern: '/projects/:projectId/api-keys',
    title: 'API keys',
    nav: 'API keys',
    page: page(() => import('./pages/api-keys/api-keys-page.js')),
  },
  {
    pattern: '/projects/:projectId/audit',
    title: 'Audit log',
    nav: 'Audit log',
    page: page(() => import('./pages/audit/audit-page.js')),
  },
  {
    pattern: '/projects/:projectId/webhooks',
    title: 'Webhooks',
    nav: 'Webhooks',
    page: page(() => import('./pages/webhooks/webhooks-page.js')),
  },
  {
    pattern: '/projects/:projectId/settings',
    title: 'Project settings',
    nav: 'Project',
    page: page(() => import('./pages/settings/settings-page.js')),
  },
];
