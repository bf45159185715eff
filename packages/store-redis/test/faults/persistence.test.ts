/**
 * The fault suite for the Redis store, on throwaway servers: one that keeps nothing on disk, one
 * with the AOF on, and one with RDB snapshots only. The store checks before its first command; a
 * record that vanished in a restart fails its claimant with an error that says so; a restore from
 * a snapshot brings back what the README says it does.
 */
import { isContinuationError } from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisStore } from '../../src/redis-store';
import { startThrowawayRedis, type ThrowawayRedis } from './throwaway-redis';

let volatile: ThrowawayRedis;
let durable: ThrowawayRedis;
let snapshots: ThrowawayRedis;
beforeAll(async () => {
  [volatile, durable, snapshots] = await Promise.all([
    startThrowawayRedis(['--save', '', '--appendonly', 'no']),
    startThrowawayRedis(['--save', '', '--appendonly', 'yes', '--appendfsync', 'always']),
    startThrowawayRedis(['--save', '3600 1', '--appendonly', 'no']),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([volatile?.destroy(), durable?.destroy(), snapshots?.destroy()]);
});

async function suspendedContinuation() {
  const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });
  const result = await agent.run(durablePlanInput({ steps: 1, approvals: [0] }));
  if (result.status !== 'suspended') throw new Error('expected a suspension');
  return result.continuation;
}

it('refuses a server without persistence when asked to, warns by default, and accepts one with the AOF', async () => {
  const continuation = await suspendedContinuation();
  const refusing = createRedisStore({ url: volatile.url, persistence: 'require' });
  const warnings: string[] = [];
  const warning = createRedisStore({ url: volatile.url, onWarning: (message) => warnings.push(message) });
  const accepted: string[] = [];
  const safe = createRedisStore({
    url: durable.url,
    persistence: 'require',
    onWarning: (m) => accepted.push(m),
  });
  try {
    const refusal = await refusing.save(continuation).catch((error: unknown) => error);
    expect(isContinuationError(refusal, 'INVALID_OPERATION')).toBe(true);
    expect((refusal as Error).message).toMatch(/keeps nothing on disk/);
    expect(await refusing.load(continuation.id).catch(() => 'refused')).toBe('refused');
    await warning.save(continuation);
    await warning.load(continuation.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/a restart loses every continuation and claim/);
    await safe.save(continuation);
    expect((await safe.load(continuation.id))?.status).toBe('suspended');
    expect(accepted).toEqual([]);
    console.log(
      `faults/redis-persistence: refused without persistence (require), ${warnings.length} warning (warn), accepted with the AOF`,
    );
  } finally {
    await Promise.all([refusing.close(), warning.close(), safe.close()]);
  }
});

it('a record that vanished in a restart fails its claimant with RECORD_LOST, not LEASE_LOST; with the AOF it survives', async () => {
  const continuation = await suspendedContinuation();
  const outcomes: Record<string, string> = {};
  for (const [name, server] of [
    ['volatile', volatile],
    ['aof', durable],
  ] as const) {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 20 });
    redis.on('error', () => undefined);
    const store = createRedisStore({ redis, prefix: `${name}:`, persistence: 'ignore' });
    try {
      await store.save(continuation);
      const claim = await store.claim(continuation.id, { owner: 'worker-1' });
      await server.restart();
      outcomes[name] = await store.complete(claim).then(
        () => 'completed',
        (error: unknown) => (isContinuationError(error) ? `${error.code}: ${error.message}` : String(error)),
      );
    } finally {
      redis.disconnect();
    }
  }
  console.log(
    `faults/redis-restart: without persistence: ${outcomes.volatile}; with the AOF: ${outcomes.aof}`,
  );
  expect(outcomes.volatile).toMatch(/^RECORD_LOST: .*vanished from Redis while "worker-1" held its claim/);
  expect(outcomes.aof).toBe('completed');
});

it('a server restored from an RDB snapshot: a record completed after it is suspended again, one saved after it is gone and its claimant gets RECORD_LOST', async () => {
  const [completedAfter, savedAfter] = [await suspendedContinuation(), await suspendedContinuation()];
  const redis = new Redis(snapshots.url, { maxRetriesPerRequest: 20 });
  redis.on('error', () => undefined);
  const warnings: string[] = [];
  const store = createRedisStore({ redis, prefix: 'rdb:', onWarning: (message) => warnings.push(message) });
  try {
    await store.save(completedAfter);
    await redis.save();
    // After the snapshot: one record resumed to completion, another saved and claimed.
    await store.complete(await store.claim(completedAfter.id, { owner: 'worker-1' }));
    await store.save(savedAfter);
    const claim = await store.claim(savedAfter.id, { owner: 'worker-2' });
    expect((await store.load(completedAfter.id))?.status).toBe('completed');
    await snapshots.restart();
    const restored = await store.load(completedAfter.id);
    const lost = await store.complete(claim).then(
      () => 'completed',
      (error: unknown) => (isContinuationError(error) ? `${error.code}: ${error.message}` : String(error)),
    );
    console.log(
      `faults/redis-rdb-restore: completed after the snapshot: ${restored?.status}; saved after it: ${(await store.load(savedAfter.id)) ?? 'gone'}; its claimant: ${lost}`,
    );
    expect(warnings).toEqual([]);
    expect(restored?.status).toBe('suspended');
    expect(await store.load(savedAfter.id)).toBeUndefined();
    expect(lost).toMatch(/^RECORD_LOST: .*vanished from Redis while "worker-2" held its claim/);
  } finally {
    redis.disconnect();
  }
});
