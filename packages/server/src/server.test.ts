/**
 * `startServer` over real sockets: the answer's origin, and a close that lets
 * a request in flight finish without waiting for its keep-alive connection.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ServedService, startServer } from './server.js';

/** A service whose answers wait until `release` is called. */
function heldService() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => {};
  const arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const service: ServedService = {
    async fetch() {
      arrived();
      await held;
      return new Response('done');
    },
  };
  return { service, release, arrival };
}

/** GET over a keep-alive connection, resolving with the status and body. */
function get(url: string): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: new Agent({ keepAlive: true }) }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode!, body, connection: response.headers.connection }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startServer', () => {
  it('answers on the origin it reports, with the real port when 0 was asked', async () => {
    const server = await startServer({ service: { fetch: async () => new Response('hi') }, port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(server.url)).text()).toBe('hi');
    } finally {
      await server.close();
    }
  });

  it('close lets a request in flight finish, closes its connection after the answer and resolves at once', async () => {
    const { service, release, arrival } = heldService();
    const server = await startServer({ service, port: 0 });
    const answer = get(`${server.url}/slow`);
    await arrival;
    const started = performance.now();
    const closed = server.close();
    release();
    expect(await answer).toEqual({ status: 200, body: 'done', connection: 'close' });
    await closed;
    // Not the 5 s a keep-alive connection would otherwise be held open for.
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
