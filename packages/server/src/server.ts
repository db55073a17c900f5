/** `startServer`: serves a service over HTTP on Node (@hono/node-server). */
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Service } from './service.js';

/** What `startServer` serves: a `Service`, or anything with its `fetch` (and optionally `close`). */
export type ServedService = Pick<Service, 'fetch'> & Partial<Pick<Service, 'close'>>;

/** A listening HTTP server. */
export interface RunningServer {
  /** Origin the server answers on, e.g. `http://127.0.0.1:8102` (the real port when 0 was asked). */
  url: string;
  /**
   * Stops accepting connections, closes idle ones, lets the requests in
   * flight finish (their connections close after the answer), then closes
   * the service (its outbox worker) and resolves.
   */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (port 0 picks a free one) and resolves once listening.
 * Rejects with the listen error (e.g. `EADDRINUSE`).
 *
 * @example
 * const { url, close } = await startServer({ service, port: 0 });
 */
export function startServer(options: { service: ServedService; port: number; host?: string }): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({
      fetch: (request, env: { incoming?: { socket?: { remoteAddress?: string } } }) =>
        options.service.fetch(request, { remoteAddress: env.incoming?.socket?.remoteAddress }),
      port: options.port,
      hostname: host,
    });
    // Answers still being worked on: on close they end their connection instead of keeping it alive.
    const inFlight = new Set<ServerResponse>();
    let stopping = false;
    server.on('request', (_request, response: ServerResponse) => {
      if (stopping) response.shouldKeepAlive = false;
      inFlight.add(response);
      response.on('close', () => {
        inFlight.delete(response);
        if (stopping && 'closeIdleConnections' in server) server.closeIdleConnections();
      });
    });
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${shownHost}:${port}`,
        close: () => {
          closing ??= new Promise<void>((done, fail) => {
            stopping = true;
            for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
            server.close((error) => {
              const closeService = options.service.close?.() ?? Promise.resolve();
              closeService.then(() => (error ? fail(error) : done()), fail);
            });
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          });
          return closing;
        },
      });
    });
  });
}
