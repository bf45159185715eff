/**
 * The stores the benchmark opens, by name, each in a namespace of its own per benchmark run.
 */
import { basename } from 'node:path';
import type { ContinuationStore } from '@agent-continuations/core';
import { createPostgresCheckpointLog } from '../packages/store-postgres/src/checkpoints';
import { createPostgresStore } from '../packages/store-postgres/src/postgres-store';
import { createRedisStore } from '../packages/store-redis/src/redis-store';
import { createSqliteStore } from '../packages/store-sqlite/src/sqlite-store';

export const BENCH_PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The schema of the checkpoint benchmark's tables, dropped after each run. */
export const BENCH_CHECKPOINT_SCHEMA = 'bench_checkpoints';
export const BENCH_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A SQL-safe name unique to the benchmark run that owns `dir`. */
export function benchNamespace(dir: string): string {
  return `bench_${basename(dir)
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()}`;
}

/** The stores the throughput section measures. */
export const BENCH_STORES = ['sqlite', 'postgres', 'redis'] as const;

/** Open a continuation store: `sqlite` (a file at `file`), `postgres` or `redis`. */
export async function openBenchStore(kind: string, file: string, dir: string): Promise<ContinuationStore> {
  if (kind === 'sqlite') return createSqliteStore({ path: file });
  if (kind === 'postgres') {
    const store = createPostgresStore({ connectionString: BENCH_PG_URL, table: benchNamespace(dir) });
    await store.migrate();
    return store;
  }
  if (kind === 'redis') return createRedisStore({ url: BENCH_REDIS_URL, prefix: 'bench-stores:' });
  throw new Error(`unknown store ${kind}`);
}

/** Remove what a benchmark run stored outside its temporary folder. */
export async function dropBenchStores(dir: string): Promise<void> {
  const postgres = createPostgresStore({ connectionString: BENCH_PG_URL, table: benchNamespace(dir) });
  await postgres.drop().catch(() => undefined);
  await postgres.close();
  const redis = createRedisStore({ url: BENCH_REDIS_URL, prefix: 'bench-stores:' });
  for (;;) {
    const page = await redis.list({ limit: 500 });
    if (page.items.length === 0) break;
    await Promise.all(page.items.map((item) => redis.delete(item.id)));
  }
  await redis.close();
  const log = createPostgresCheckpointLog({
    connectionString: BENCH_PG_URL,
    schema: BENCH_CHECKPOINT_SCHEMA,
  });
  await log.drop().catch(() => undefined);
  await log.close();
}
