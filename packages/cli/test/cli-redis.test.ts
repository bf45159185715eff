import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { cliSuite } from './cli-suite';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// A key prefix of its own, so that parallel test files never see each other's keys; deleted after.
const prefix = `ac-cli-${randomUUID()}`;

cliSuite('Redis', {
  url: (name) => `${REDIS_URL}?prefix=${prefix}-${name}:`,
  async cleanup() {
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${prefix}-*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  },
});
