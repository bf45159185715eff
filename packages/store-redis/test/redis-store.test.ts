import { runStoreContract } from '@agent-continuations/testing';
import { Redis } from 'ioredis';
import { createRedisStore } from '../src';
import { REDIS_URL, requireRedis } from './require-redis';

await requireRedis(REDIS_URL);

runStoreContract(
  'redis',
  ({ encryption }) => {
    // A key prefix of its own per test, so parallel test files never see each other's keys.
    const prefix = `ac-test-${crypto.randomUUID()}:`;
    const redis = new Redis(REDIS_URL);
    const store = createRedisStore({ redis, prefix, encryption });
    return {
      store,
      connect: (context) => createRedisStore({ url: REDIS_URL, prefix, encryption: context.encryption }),
      raw: async (id) => {
        const fields = await redis.hgetall(store.keyOf(id));
        return Object.keys(fields).length === 0 ? undefined : JSON.stringify(fields);
      },
      cleanup: async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      },
    };
  },
  { encryption: true },
);
