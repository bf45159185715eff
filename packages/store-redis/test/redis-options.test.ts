import { isContinuationError } from '@agent-continuations/core';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../src';
import { REDIS_URL, requireRedis } from './require-redis';

await requireRedis(REDIS_URL);

describe('createRedisStore options', () => {
  it('leaves a given client open on close, and keeps every key under its prefix', async () => {
    const redis = new Redis(REDIS_URL);
    const prefix = `ac-opts-${crypto.randomUUID()}:`;
    const store = createRedisStore({ redis, prefix });
    try {
      expect(await store.list()).toEqual({ items: [] });
      await store.close();
      expect(await redis.ping()).toBe('PONG');
      expect(store.keyOf('c1')).toBe(`${prefix}c:c1`);
    } finally {
      await redis.quit();
    }
  });

  it('refuses a missing or double connection', () => {
    const codeOf = (make: () => unknown) => {
      try {
        make();
        return undefined;
      } catch (error) {
        return isContinuationError(error) ? error.code : String(error);
      }
    };
    expect(codeOf(() => createRedisStore({}))).toBe('INVALID_OPERATION');
    const redis = new Redis(REDIS_URL, { lazyConnect: true });
    expect(codeOf(() => createRedisStore({ redis, url: REDIS_URL }))).toBe('INVALID_OPERATION');
    redis.disconnect();
  });
});
