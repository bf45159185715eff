/**
 * Calls that one store instance makes at the same time share statements (loads and completions
 * are batched): each caller still gets its own outcome. A claim another process took over fails
 * alone with LEASE_LOST, the others complete, and every load returns its own record.
 */
import {
  type Continuation,
  createContinuableAgent,
  defineTool,
  isContinuationError,
  type JsonObject,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresStore } from '../src';
import { PG_URL } from './pg-fixtures';
import { requirePostgres } from './require-postgres';

await requirePostgres(PG_URL);

const table = `batching_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
const store = createPostgresStore({ connectionString: PG_URL, schema: 'ac_contract', table });
const other = createPostgresStore({ connectionString: PG_URL, schema: 'ac_contract', table });
afterAll(async () => {
  await store.drop();
  await store.close();
  await other.close();
});

async function suspendedRefund(): Promise<Continuation> {
  const agent = createContinuableAgent({
    name: 'refunds',
    model: scriptedModel([{ toolCalls: [{ name: 'refund', args: { amount: 5 } }] }]),
    tools: [
      defineTool({
        name: 'refund',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: () => 'ok',
      }),
    ],
  });
  const result = await agent.run('refund');
  if (result.status !== 'suspended') throw new Error('expected an approval');
  return result.continuation;
}

const variant = (base: Continuation, id: string, metadata: JsonObject): Continuation => ({
  ...base,
  id,
  runId: `run-${id}`,
  metadata,
});

it('gives each of many concurrent completions and loads its own outcome', { timeout: 60_000 }, async () => {
  const base = await suspendedRefund();
  const ids = Array.from({ length: 60 }, (_, i) => `batch-${i}`);
  await Promise.all(ids.map((id, i) => store.save(variant(base, id, { i }))));

  const loaded = await Promise.all(ids.map((id) => store.load(id)));
  expect(loaded.map((record) => [record?.id, record?.metadata])).toEqual(ids.map((id, i) => [id, { i }]));
  expect(
    await Promise.all([store.load('missing-1'), store.load(ids[0]!), store.load('missing-2')]),
  ).toMatchObject([undefined, { id: ids[0] }, undefined]);

  // Short leases: every tenth claim lapses and another process takes it over before completing.
  const claims = await Promise.all(
    ids.map((id, i) => store.claim(id, { owner: 'a', leaseMs: i % 10 === 0 ? 1 : 60_000 })),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  const taken = ids.filter((_, i) => i % 10 === 0);
  await Promise.all(taken.map((id) => other.claim(id, { owner: 'b' })));

  const outcomes = await Promise.allSettled(claims.map((claim) => store.complete(claim)));
  outcomes.forEach((outcome, i) => {
    if (i % 10 === 0) {
      expect(outcome.status).toBe('rejected');
      expect(isContinuationError((outcome as PromiseRejectedResult).reason, 'LEASE_LOST')).toBe(true);
    } else expect(outcome.status).toBe('fulfilled');
  });
  const statuses = await Promise.all(ids.map(async (id) => (await store.load(id))!.status));
  expect(statuses).toEqual(ids.map((_, i) => (i % 10 === 0 ? 'claimed' : 'completed')));

  // A second completion of the same claims, all at once: each fails alone, nothing changes.
  const again = await Promise.allSettled(claims.slice(1, 5).map((claim) => store.complete(claim)));
  expect(again.every((outcome) => outcome.status === 'rejected')).toBe(true);
});
