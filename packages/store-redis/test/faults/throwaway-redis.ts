/**
 * A throwaway `redis-server` for the fault suite, on a free port with its own directory, so that
 * tests can restart it (and lose what it does not persist) without touching the shared server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '@agent-continuations/testing/runtime';
import { Redis } from 'ioredis';

export interface ThrowawayRedis {
  readonly url: string;
  /** SIGKILL the server and start it again on the same port and directory. */
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/** Start a server with `config` (e.g. `['--appendonly', 'yes']`); `destroy()` it after the test. */
export async function startThrowawayRedis(config: string[]): Promise<ThrowawayRedis> {
  const dir = mkdtempSync('/tmp/ac-faults-redis-');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...config], {
      stdio: 'ignore',
    });
    // Ready when it answers PING (bounded).
    for (let i = 0; i < 100; i++) {
      const probe = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await stop();
      await start();
    },
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
