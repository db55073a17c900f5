import { useLatchkeyContext } from '../provider.js';
import { useAppData } from './use-app-data.js';

/**
 * The project's display name for page titles: `override`, else the
 * provider's `projectName`, else the one the service reports (loaded without
 * suspending: the page shows at once and names the project when it can).
 * `undefined` while it loads, `null` when it cannot be known.
 */
export function useProjectName(override?: string): string | null | undefined {
  const { projectName } = useLatchkeyContext();
  const given = override ?? projectName;
  const project = useAppData('project', { suspend: false, enabled: given === undefined });
  if (given !== undefined) return given;
  if (project.status === 'ready') return project.data.displayName || null;
  return project.status === 'failed' ? null : undefined;
}
