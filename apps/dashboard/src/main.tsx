/**
 * The dashboard's entry: reads the config the service serves beside the page,
 * signs owners in to the `internal` project with a `ClientApp` on this origin,
 * and renders.
 */
import { ClientApp } from '@latchkey/js';
import '@latchkey/react/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, StartupError } from './app.js';
import { apiBaseUrl, basePath, loadConfig } from './config.js';
import './dashboard.css';

const root = createRoot(document.getElementById('root')!);

try {
  const config = await loadConfig();
  const app = new ClientApp({
    projectId: 'internal',
    publishableClientKey: config.internalPublishableClientKey,
    baseUrl: apiBaseUrl,
    tokenStore: 'cookie',
    urls: { handler: `${basePath}handler`, home: basePath, afterSignIn: basePath, afterSignOut: basePath },
  });
  root.render(
    <StrictMode>
      <App app={app} config={config} />
    </StrictMode>,
  );
} catch (error) {
  root.render(<StartupError error={error} />);
}
