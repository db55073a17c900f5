/**
 * The demo's entry: reads `/latchkey-config.json`, creates the SDK app on the
 * configured service (its own origin, called cross-origin) and renders.
 */
import { ClientApp } from '@latchkey/js';
import '@latchkey/react/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, StartupError } from './app.js';
import { loadConfig } from './config.js';
import './demo.css';

const root = createRoot(document.getElementById('root')!);

try {
  const config = await loadConfig();
  const app = new ClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.apiUrl,
    tokenStore: 'cookie',
  });
  root.render(
    <StrictMode>
      <App app={app} />
    </StrictMode>,
  );
} catch (error) {
  root.render(<StartupError error={error} />);
}
