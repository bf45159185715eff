/**
 * The fault suite for SQLite: a disk that fills up (the database's page limit reached, so the
 * driver reports `SQLITE_FULL` as on a full disk) and a database that turns read-only. Each
 * failing call is a `STORE_UNAVAILABLE` with the driver's error as its cause; nothing stored before
 * is lost, and once the fault is gone the calls go through.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Continuation, isContinuationError, runDurably } from '@agent-continuations/core';
import { durablePlanInput, durableTestAgent } from '@agent-continuations/testing';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { createSqliteCheckpointLog } from '../../src/checkpoints';
import { createSqliteStore } from '../../src/sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync('/tmp/ac-faults-sqlite-');
  dirs.push(dir);
  const database = new Database(join(dir, 'agents.db'));
  return { database, store: createSqliteStore({ database }), log: createSqliteCheckpointLog({ database }) };
}

const agent = durableTestAgent({ charge: () => 'paid', notify: () => 'sent' });

async function suspendedContinuation(
  store: ReturnType<typeof open>['store'],
  log: ReturnType<typeof open>['log'],
) {
  const result = await runDurably(agent, log, durablePlanInput({ steps: 1, approvals: [0] }), {
    store,
    owner: 'w',
  });
  if (result.status !== 'suspended') throw new Error('expected a suspension');
  return result.continuation;
}

/** The error a call fails with, as code, cause code and message. */
async function failure(call: () => Promise<unknown>) {
  try {
    await call();
    return { code: 'none' };
  } catch (error) {
    return {
      code: isContinuationError(error) ? error.code : `raw ${(error as { code?: string }).code}`,
      cause: (error as { cause?: { code?: string } }).cause?.code,
      message: (error as Error).message,
    };
  }
}

it('a full disk fails saves and log writes with STORE_UNAVAILABLE (cause SQLITE_FULL); nothing is lost, and writes resume once there is room', async () => {
  const { database, store, log } = open();
  const kept = await suspendedContinuation(store, log);
  const pages = database.pragma('page_count', { simple: true }) as number;
  database.pragma(`max_page_count = ${pages}`);
  const big = (i: number): Continuation => ({
    ...kept,
    id: `big-${i}`,
    metadata: { blob: 'x'.repeat(200_000) },
  });
  const save = await failure(() => store.save(big(1)));
  const run = await failure(() =>
    runDurably(agent, log, durablePlanInput({ steps: 1, approvals: [0] }), {
      store,
      owner: 'w',
      metadata: { blob: 'y'.repeat(200_000) },
    }),
  );
  console.log(
    `faults/sqlite-full: save ${save.code} (cause ${save.cause}); durable run ${run.code} (cause ${run.cause})`,
  );
  expect(save).toMatchObject({ code: 'STORE_UNAVAILABLE', cause: 'SQLITE_FULL' });
  expect(save.message).toMatch(/is full/);
  expect(run).toMatchObject({ code: 'STORE_UNAVAILABLE' });
  expect((await store.load(kept.id))?.status).toBe('suspended');
  database.pragma('max_page_count = 1073741823');
  await store.save(big(1));
  expect((await store.load('big-1'))?.metadata).toEqual({ blob: 'x'.repeat(200_000) });
  const claim = await store.claim(kept.id, { owner: 'w' });
  await store.complete(claim);
});

it('a read-only database fails writes with STORE_UNAVAILABLE (cause SQLITE_READONLY) and still reads; writes resume once it is writable', async () => {
  const { database, store, log } = open();
  const kept = await suspendedContinuation(store, log);
  database.pragma('query_only = 1');
  const claim = await failure(() => store.claim(kept.id, { owner: 'w' }));
  const append = await failure(() =>
    log.fail({ runId: kept.runId, owner: 'w', token: 'none', leaseUntil: new Date().toISOString() }, 'x'),
  );
  console.log(
    `faults/sqlite-read-only: claim ${claim.code} (cause ${claim.cause}); log write ${append.code} (cause ${append.cause})`,
  );
  expect(claim).toMatchObject({ code: 'STORE_UNAVAILABLE', cause: 'SQLITE_READONLY' });
  expect(claim.message).toMatch(/read-only/);
  expect(append).toMatchObject({ code: 'STORE_UNAVAILABLE', cause: 'SQLITE_READONLY' });
  expect((await store.load(kept.id))?.status).toBe('suspended');
  database.pragma('query_only = 0');
  const held = await store.claim(kept.id, { owner: 'w' });
  await store.complete(held);
  expect((await store.load(kept.id))?.status).toBe('completed');
});
