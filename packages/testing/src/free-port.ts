/**
 * A free TCP port on the loopback interface, for servers a test starts itself (a throwaway
 * Postgres cluster, a `redis-server`).
 */
import { createServer } from 'node:net';

/**
 * A port nobody listens on at the moment of the call.
 *
 * @example
 * ```ts
 * const port = await freePort();
 * spawn('redis-server', ['--port', String(port)]);
 * ```
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
