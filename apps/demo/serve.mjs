/**
 * Serves the built demo (`apps/demo/dist`) with no dependencies: static files
 * with their content types, a single-page-app fallback to `index.html` for
 * paths without an extension, and `/latchkey-config.json` from `config`, so
 * one build works against any Latchkey service.
 *
 * @example
 * ```js
 * import { serveDemo } from './apps/demo/serve.mjs';
 * const demo = await serveDemo({
 *   port: 0, // ephemeral
 *   config: { apiUrl: 'http://127.0.0.1:8102', projectId, publishableClientKey },
 * });
 * console.log(demo.url); // http://127.0.0.1:40123
 * await demo.close();
 * ```
 *
 * Run directly: `node apps/demo/serve.mjs` with LATCHKEY_API_URL,
 * LATCHKEY_PROJECT_ID, LATCHKEY_PUBLISHABLE_CLIENT_KEY (and DEMO_PORT).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultDistDir = fileURLToPath(new URL('./dist', import.meta.url));

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Starts the demo server.
 *
 * @param {{ port?: number, host?: string, config: { apiUrl: string, projectId: string, publishableClientKey: string }, distDir?: string }} options
 *   `port` 0 picks a free port.
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function serveDemo({ port = 5173, host = '127.0.0.1', config, distDir = defaultDistDir } = {}) {
  if (!config || typeof config.apiUrl !== 'string' || typeof config.projectId !== 'string') {
    throw new TypeError('serveDemo: config { apiUrl, projectId, publishableClientKey } is required.');
  }
  const root = resolve(distDir);
  const index = join(root, 'index.html');
  if (!(await isFile(index))) {
    throw new Error(`serveDemo: ${index} is missing; build the demo first (npm run build -w apps/demo).`);
  }
  const configBody = JSON.stringify({
    apiUrl: config.apiUrl,
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
  });

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'Internal error');
      else response.destroy();
    });
  });

  async function handle(request, response) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://demo').pathname);
    } catch {
      return send(response, 400, 'text/plain; charset=utf-8', 'Bad request');
    }
    if (pathname === '/latchkey-config.json') {
      response.setHeader('cache-control', 'no-store');
      return send(response, 200, contentTypes['.json'], request.method === 'HEAD' ? '' : configBody);
    }
    const file = resolve(root, `.${pathname}`);
    const inside = file === root || file.startsWith(root + sep);
    if (inside && file !== root && (await isFile(file))) {
      const immutable = pathname.startsWith('/assets/');
      return sendFile(request, response, file, immutable);
    }
    if (extname(pathname) === '') return sendFile(request, response, index, false);
    return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
  }

  await new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function send(response, status, type, body) {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

async function sendFile(request, response, file, immutable) {
  const { size } = await stat(file);
  response.writeHead(200, {
    'content-type': contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (request.method === 'HEAD') return response.end();
  await new Promise((resolveStream, rejectStream) => {
    const stream = createReadStream(file);
    stream.once('error', rejectStream);
    stream.once('end', resolveStream);
    stream.pipe(response);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { LATCHKEY_API_URL, LATCHKEY_PROJECT_ID, LATCHKEY_PUBLISHABLE_CLIENT_KEY, DEMO_PORT } = process.env;
  if (!LATCHKEY_API_URL || !LATCHKEY_PROJECT_ID || !LATCHKEY_PUBLISHABLE_CLIENT_KEY) {
    console.error('Set LATCHKEY_API_URL, LATCHKEY_PROJECT_ID and LATCHKEY_PUBLISHABLE_CLIENT_KEY.');
    process.exit(1);
  }
  const demo = await serveDemo({
    port: DEMO_PORT ? Number(DEMO_PORT) : undefined,
    config: {
      apiUrl: LATCHKEY_API_URL,
      projectId: LATCHKEY_PROJECT_ID,
      publishableClientKey: LATCHKEY_PUBLISHABLE_CLIENT_KEY,
    },
  });
  console.log(`Latchkey demo on ${demo.url}`);
}
