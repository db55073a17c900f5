/**
 * The signed-in owner and the project a page is about: `OwnerProvider` makes
 * one `ProjectOwnerApp` per signed-in user; `ProjectProvider` gives the pages
 * below it that project's `AdminApp` (the owner's session as an admin access
 * token), also as the data provider of `useQuery`.
 */
import type { ProjectOwnerSession } from '@latchkey/js/admin';
import { type AdminApp, ProjectOwnerApp } from '@latchkey/js/admin';
import { LatchkeyDataProvider } from '@latchkey/react';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { apiBaseUrl } from './config.js';

const OwnerContext = createContext<ProjectOwnerApp | null>(null);
const ProjectContext = createContext<{ projectId: string; adminApp: AdminApp } | null>(null);

export function OwnerProvider({
  session,
  publishableClientKey,
  children,
}: {
  session: ProjectOwnerSession & { id: string };
  publishableClientKey: string;
  children: ReactNode;
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: one app per signed-in user
  const owner = useMemo(
    () => new ProjectOwnerApp({ baseUrl: apiBaseUrl, publishableClientKey, projectOwnerSession: session }),
    [session.id, publishableClientKey],
  );
  return (
    <OwnerContext.Provider value={owner}>
      <LatchkeyDataProvider app={owner}>{children}</LatchkeyDataProvider>
    </OwnerContext.Provider>
  );
}

/** The signed-in owner's `ProjectOwnerApp`. */
export function useOwner(): ProjectOwnerApp {
  const owner = useContext(OwnerContext);
  if (!owner) throw new Error('useOwner() needs an <OwnerProvider> above it.');
  return owner;
}

export function ProjectProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  const owner = useOwner();
  const value = useMemo(() => ({ projectId, adminApp: owner.adminApp(projectId) }), [owner, projectId]);
  return (
    <ProjectContext.Provider value={value}>
      <LatchkeyDataProvider app={value.adminApp}>{children}</LatchkeyDataProvider>
    </ProjectContext.Provider>
  );
}

/** The page's project: its id and its `AdminApp`. */
export function useProject(): { projectId: string; adminApp: AdminApp } {
  const project = useContext(ProjectContext);
  if (!project) throw new Error('useProject() needs a <ProjectProvider> above it.');
  return project;
}
