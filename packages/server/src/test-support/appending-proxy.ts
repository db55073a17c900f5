/**
 * A reverse proxy in front of a test service that does what nginx's
 * `proxy_add_x_forwarded_for`, AWS ALB, Traefik, Caddy and Heroku do: it
 * appends the address its client connected from to `x-forwarded-for`, after
 * whatever the client wrote there. Chained (`through` another proxy), it
 * connects onwards from `fromAddress`, a loopback address of its own, so each
 * hop appends a different address.
 *
 * @example
 * const edge = await startAppendingProxy(service, { fromAddress: '127.0.0.5' });
 * await call(edge, 'POST', '/auth/password/sign-up', { headers: { 'x-forwarded-for': '1.2.3.4' }, json });
 * await edge.close();
 */
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { TestService } from '../testing/index.js';

/** A test service as reached through the proxy: `url` and `apiUrl` are the proxy's. */
export type ProxiedService = TestService & { close(): Promise<void> };

export async function startAppendingProxy(
  target: TestService,
  options: { fromAddress?: string } = {},
): Promise<ProxiedService> {
  const upstream = new URL(target.url);
  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    const seen = incoming.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${seen}` : seen;
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        ...(options.fromAddress ? { localAddress: options.fromAddress } : {}),
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    ...target,
    url,
    apiUrl: `${url}/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
