/**
 * The stores the benchmark opens, by name.
 */
import type { ContinuationStore } from '@agent-continuations/core';
import { createSqliteStore } from '../packages/store-sqlite/src/sqlite-store';

export const BENCH_PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const BENCH_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Open a continuation store: `sqlite` (a file at `file`), `postgres` or `redis`. */
export async function openBenchStore(kind: string, file: string): Promise<ContinuationStore> {
  if (kind === 'sqlite') return createSqliteStore({ path: file });
  throw new Error(`the ${kind} store is not available yet`);
}
