/**
 * A TCP proxy in front of a server the service depends on, for fault tests:
 * freeze it (the server accepts and never answers), cut it (the server is
 * gone), start it again (the server is back, on the same port).
 */
import { createServer, type Server, Socket } from 'node:net';

/** A TCP proxy to a database (PostgreSQL, Redis) that the test can freeze (silent) and cut (gone). */
export class FaultyProxy {
  readonly sockets = new Set<Socket>();
  server!: Server;
  port = 0;
  frozen = false;

  constructor(readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => {});
      if (this.frozen) return; // accepted, never answered
      const upstream = new Socket();
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.connect(this.target.port, this.target.host, () => {
        client.on('data', (chunk) => {
          if (!this.frozen) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!this.frozen) client.write(chunk);
        });
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Every connection, open or new, stops answering. */
  freeze(): void {
    this.frozen = true;
  }

  /** Connections open while frozen are dropped; new ones pass again. */
  thaw(): void {
    this.frozen = false;
    for (const socket of this.sockets) socket.destroy();
  }

  /** The database is gone: every connection cut, new ones refused. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  close(): Promise<void> {
    return this.cut().catch(() => {});
  }
}
