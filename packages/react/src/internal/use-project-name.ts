import { useEffect, useState } from 'react';
import { useLatchkeyContext } from '../provider.js';

/**
 * The project's display name for page titles: `override`, else the
 * provider's `projectName`, else the one the service reports. `undefined`
 * while it loads, `null` when it cannot be known.
 */
export function useProjectName(override?: string): string | null | undefined {
  const { app, projectName } = useLatchkeyContext();
  const given = override ?? projectName;
  const [loaded, setLoaded] = useState<{ app: unknown; name: string | null }>();

  useEffect(() => {
    if (given !== undefined) return;
    let live = true;
    app.getProject().then(
      (project) => live && setLoaded({ app, name: project.displayName || null }),
      () => live && setLoaded({ app, name: null }),
    );
    return () => {
      live = false;
    };
  }, [app, given]);

  if (given !== undefined) return given;
  return loaded?.app === app ? loaded.name : undefined;
}
