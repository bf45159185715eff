/**
 * A contract for a checkpoint log and a store that share one database: a suspension's log entry
 * and its stored continuation (or the completion of the claim it ran under) are written in one
 * transaction, so the log and the store never disagree after a crash.
 */
import {
  type CheckpointLog,
  type CheckpointStep,
  type Continuation,
  type ContinuationStore,
  isContinuationError,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { durablePlanInput, durableTestAgent } from './durable-agent';

/** A store and a log on one database, and how to close both. */
export interface SharedDatabase {
  store: ContinuationStore;
  log: CheckpointLog;
  close(): unknown;
}

/**
 * Run the shared-database contract: `open` gives a fresh store and log on one database.
 *
 * @example
 * ```ts
 * runSharedDatabaseContract('sqlite', () => {
 *   const database = new Database(':memory:');
 *   return {
 *     store: createSqliteStore({ database }),
 *     log: createSqliteCheckpointLog({ database }),
 *     close: () => database.close(),
 *   };
 * });
 * ```
 */
export function runSharedDatabaseContract(
  name: string,
  open: () => SharedDatabase | Promise<SharedDatabase>,
): void {
  describe(`shared database contract: ${name}`, () => {
    let opened: SharedDatabase;
    const store = () => opened.store;
    const log = () => opened.log;
    beforeEach(async () => {
      opened = await open();
    });
    afterEach(async () => {
      await opened.close();
    });

    const agent = durableTestAgent({ charge: () => 'charged', notify: () => 'sent' });

    it('a suspension is logged and stored in one transaction: a store write that fails leaves no suspend entry', async () => {
      const first = await agent.run(durablePlanInput({ steps: 2, approvals: [0] }));
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const lease = await log().begin(
        {
          type: 'start',
          runId: first.continuation.runId,
          agentName: agent.name,
          at: new Date().toISOString(),
          from: first.continuation,
        },
        { owner: 'w1', leaseMs: 60_000 },
      );
      const next: Continuation = { ...first.continuation, id: 'next-1' };
      const entry: CheckpointStep = {
        type: 'suspend',
        step: next.step,
        usage: next.usage,
        suspension: { id: next.id, createdAt: next.createdAt, suspendedBy: next.suspendedBy },
      };
      // A claim that is not held: the store's half fails, so the log's half is rolled back.
      const stale = {
        id: first.continuation.id,
        owner: 'ghost',
        token: 'not-held',
        leaseUntil: new Date().toISOString(),
      };
      await store().save(first.continuation);
      await expect(log().appendWith!(lease, entry, { store: store(), next, claim: stale })).rejects.toSatisfy(
        (error) => isContinuationError(error, 'LEASE_LOST'),
      );
      expect((await log().read(first.continuation.runId)).map((e) => e.type)).toEqual(['start']);
      expect((await log().status(first.continuation.runId))?.status).toBe('running');
      expect(await store().load('next-1')).toBeUndefined();

      // With the claim held, both halves land together and nothing is left to reconcile.
      const claim = await store().claim(first.continuation.id, { owner: 'w1' });
      expect(await log().appendWith!(lease, entry, { store: store(), next, claim })).toBe(true);
      expect((await log().status(first.continuation.runId))?.status).toBe('suspended');
      expect((await store().load(first.continuation.id))?.status).toBe('completed');
      expect((await store().load('next-1'))?.status).toBe('suspended');
      expect(await log().unsaved!()).toEqual([]);
    });

    it('runDurably and resumeStored with a log on the same database write suspensions through the log transaction', async () => {
      let completes = 0;
      let saves = 0;
      const counted: ContinuationStore = Object.create(store());
      counted.complete = (claim, options) => {
        completes++;
        return store().complete(claim, options);
      };
      counted.save = (continuation, options) => {
        saves++;
        return store().save(continuation, options);
      };
      const first = await runDurably(agent, log(), durablePlanInput({ steps: 4, approvals: [0, 2] }), {
        runId: 'tx-1',
        owner: 'w1',
        store: counted,
      });
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      expect((await store().load(first.continuation.id))?.status).toBe('suspended');
      const second = await resumeStored(
        counted,
        agent,
        first.continuation.id,
        { [first.actions[0]!.id]: { type: 'approve' } },
        { log: log() },
      );
      if (second.status !== 'suspended') throw new Error('expected the second approval');
      expect((await store().load(first.continuation.id))?.status).toBe('completed');
      expect((await store().load(second.continuation.id))?.status).toBe('suspended');
      // Neither went through the store's own save or complete: the log's transaction wrote them.
      expect({ saves, completes }).toEqual({ saves: 0, completes: 0 });
      expect(await log().unsaved!()).toEqual([]);
      const done = await resumeStored(
        counted,
        agent,
        second.continuation.id,
        { [second.actions[0]!.id]: { type: 'approve' } },
        { log: log() },
      );
      expect(done).toMatchObject({ status: 'completed', output: 'completed 4 steps' });
      expect((await store().load(second.continuation.id))?.status).toBe('completed');
      // The end of the run completed the claim in the log's transaction too.
      expect({ saves, completes }).toEqual({ saves: 0, completes: 0 });
      expect((await log().status('tx-1'))?.status).toBe('completed');
    });
  });
}
