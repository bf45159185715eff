import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { createRedisStore } from '../src';
import { REDIS_URL, requireRedis } from './require-redis';

await requireRedis(REDIS_URL);

it('runs the README example, which the README shows verbatim', async () => {
  const example = readFileSync(join(import.meta.dirname, 'readme/example.ts'), 'utf8');
  expect(readFileSync(join(import.meta.dirname, '../README.md'), 'utf8')).toContain(example);

  // The example's prefix is fixed: run it in a database of its own (15) and clean up around it.
  const url = new URL(REDIS_URL);
  url.pathname = '/15';
  const redis = new Redis(url.toString());
  const clean = async () => {
    const keys = await redis.keys('payroll:*');
    if (keys.length > 0) await redis.del(...keys);
  };
  await clean();
  try {
    process.env.REDIS_URL = url.toString();
    await import('./readme/example');
    const { runs } = await import('./readme/agent');
    expect(runs).toEqual({ update_salary: 0, send_letter: 0 });
    const store = createRedisStore({ redis, prefix: 'payroll:' });
    const [stored] = (await store.list()).items;
    expect(stored?.status).toBe('completed');
    const next = (await store.list({ runId: stored!.runId })).items;
    expect(next).toHaveLength(1);
  } finally {
    await clean();
    await redis.quit();
  }
});
