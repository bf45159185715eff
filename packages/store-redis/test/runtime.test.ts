import { runRuntimeSuite } from '@agent-continuations/testing';
import { Redis } from 'ioredis';
import { createRedisStore } from '../src';
import { REDIS_URL, requireRedis } from './require-redis';

await requireRedis(REDIS_URL);

// Redis has no checkpoint log of its own: the logged runs use the in-memory one.
runRuntimeSuite('redis', () => {
  const prefix = `ac-runtime-${crypto.randomUUID()}:`;
  const redis = new Redis(REDIS_URL);
  return {
    store: createRedisStore({ redis, prefix }),
    cleanup: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
});
