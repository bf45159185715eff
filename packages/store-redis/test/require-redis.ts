/**
 * Fail a test file at once, with a clear message, when the Redis server is not reachable: the
 * store contract runs against a real server and is never skipped silently.
 */
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function requireRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${url} (${(error as Error).message}). ` +
        'Start it (e.g. `redis-server --daemonize yes --bind 127.0.0.1 --port 6379`, or run `bash .ci/run`, ' +
        'which starts it) or point REDIS_URL at a server.',
    );
  } finally {
    redis.disconnect();
  }
}
