/**
 * The checkpoint log contract: every {@link CheckpointLog} (SQLite, Postgres, ...) runs these
 * scenarios through the core's durable runners, from a few lines that hand over a factory.
 */
import {
  type CheckpointLog,
  type CheckpointStep,
  createEncryption,
  createMemoryStore,
  type Encryption,
  isContinuationError,
  parseContinuation,
  recover,
  recoverRun,
  resumeDurably,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { encryptionKeyIdOf, replayCheckpoints } from '@agent-continuations/core/store-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inDoubtScenarios } from './checkpoint-contract-in-doubt';
import { durablePlanInput, durableTestAgent } from './durable-agent';

/** A log under test; `size` reports its stored bytes for one run. */
export type CheckpointLogUnderTest = CheckpointLog & {
  size(runId: string): Promise<{ entries: number; bytes: number }>;
};

/** Makes a fresh, empty log for one test, and disposes of it. */
export type CheckpointLogFactory = () => Promise<{
  log: CheckpointLogUnderTest;
  cleanup: () => Promise<void>;
}>;

/**
 * Run the checkpoint log contract against a log implementation.
 *
 * @example
 * ```ts
 * runCheckpointLogContract('sqlite', async () => {
 *   const log = createSqliteCheckpointLog({ database: ':memory:' });
 *   return { log, cleanup: () => log.close() };
 * });
 * ```
 */
export function runCheckpointLogContract(name: string, factory: CheckpointLogFactory): void {
  function countingAgent() {
    const counts = { charge: 0, notify: 0 };
    const agent = durableTestAgent({
      charge: (args) => {
        counts.charge++;
        return `charged ${args.n}`;
      },
      notify: (args) => {
        counts.notify++;
        return `notified ${args.n}`;
      },
    });
    return { agent, counts };
  }

  describe(`checkpoint log contract: ${name}`, () => {
    let log: CheckpointLogUnderTest;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ log, cleanup } = await factory());
    });
    afterEach(async () => {
      await cleanup();
    });

    inDoubtScenarios(() => log);

    it('records every step and replays a completed run', async () => {
      const { agent } = countingAgent();
      const result = await runDurably(agent, log, durablePlanInput({ steps: 4 }), {
        runId: 'r1',
        owner: 'w1',
      });
      expect(result.status).toBe('completed');
      const entries = await log.read('r1');
      // start, then per turn: model call + tool result; the final answer; the end.
      expect(entries.map((entry) => entry.type)).toEqual(['start', ...Array(9).fill('step'), 'end']);
      const replay = replayCheckpoints(entries);
      expect(replay.status).toBe('completed');
      expect(replay.output).toBe('completed 4 steps');
      expect(replay.continuation!.messages).toEqual(result.status === 'completed' ? result.messages : []);
      expect((await log.status('r1'))?.status).toBe('completed');
    });

    it('rebuilds the continuation of any recorded step, and resuming it never reruns a recorded tool', async () => {
      const { agent } = countingAgent();
      await runDurably(agent, log, durablePlanInput({ steps: 4 }), { runId: 'r2', owner: 'w1' });
      const entries = await log.read('r2');
      for (let cut = 2; cut < entries.length - 1; cut++) {
        const replay = replayCheckpoints(entries.slice(0, cut));
        const continuation = parseContinuation(JSON.stringify(replay.continuation));
        expect(continuation.suspendedBy).toEqual({ type: 'checkpoint' });
        const fresh = countingAgent();
        const resumed = await fresh.agent.resume(continuation);
        expect(resumed.status).toBe('completed');
        // Tool results recorded before the cut: ceil((cut - 1) / 2) model-call/tool-result pairs.
        const recordedResults = Math.floor((cut - 1) / 2);
        expect(fresh.counts.charge + fresh.counts.notify).toBe(4 - recordedResults);
      }
    });

    it('writes about the same bytes per step at step 99 as at step 1', async () => {
      const { agent } = countingAgent();
      // 99 tool turns and the answer: the 100th model call, within the default step limit.
      await runDurably(agent, log, durablePlanInput({ steps: 99, payload: 200 }), {
        runId: 'long',
        owner: 'w1',
      });
      const sizes = (await log.read('long'))
        .filter((entry): entry is CheckpointStep => entry.type === 'step')
        .map((entry) => JSON.stringify(entry).length);
      expect(sizes).toHaveLength(199);
      const early = Math.max(...sizes.slice(0, 4));
      const late = Math.max(...sizes.slice(-5));
      expect(late).toBeLessThan(early * 1.2);
      const { bytes } = await log.size('long');
      expect(bytes).toBeLessThan(sizes.length * early * 1.2 + 1000);
    });

    it('resumes a recorded suspension by reference, with its decisions in the log', async () => {
      const { agent, counts } = countingAgent();
      const first = await runDurably(agent, log, durablePlanInput({ steps: 3, approvals: [2] }), {
        runId: 'r3',
        owner: 'w1',
      });
      expect(first.status).toBe('suspended');
      if (first.status !== 'suspended') return;
      expect((await log.status('r3'))?.suspensionId).toBe(first.continuation.id);
      const replayed = replayCheckpoints(await log.read('r3'));
      expect(replayed.status).toBe('suspended');
      expect(replayed.continuation).toEqual(first.continuation);

      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const, by: 'ann' } };
      const second = await resumeDurably(agent, log, first.continuation, decisions, { owner: 'w2' });
      expect(second.status).toBe('completed');
      const entries = await log.read('r3');
      const starts = entries.filter((entry) => entry.type === 'start');
      expect(starts[1]).toMatchObject({ fromId: first.continuation.id, decisions });
      expect(starts[1]).not.toHaveProperty('from');
      expect(replayCheckpoints(entries).continuation!.decisions).toHaveLength(1);
      expect(counts).toEqual({ charge: 2, notify: 1 });
    });

    it('fences writers by their lease: a second begin, or a writer whose run was taken over, is refused', async () => {
      const start = {
        type: 'start' as const,
        runId: 'r4',
        agentName: 'durable',
        at: new Date().toISOString(),
        input: [],
      };
      const lease = await log.begin(start, { owner: 'w1', leaseMs: 1 });
      await expect(log.begin(start, { owner: 'w2', leaseMs: 1000 })).rejects.toSatisfy((e) =>
        isContinuationError(e, 'CLAIM_CONFLICT'),
      );
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const attempts = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => log.takeOver('r4', { owner: `w${i + 2}`, leaseMs: 60_000 })),
      );
      const winners = attempts.filter((attempt) => attempt.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const attempt of attempts) {
        if (attempt.status === 'rejected')
          expect(isContinuationError(attempt.reason, 'CLAIM_CONFLICT')).toBe(true);
      }
      const taken = (winners[0] as PromiseFulfilledResult<Awaited<ReturnType<CheckpointLog['takeOver']>>>)
        .value;
      const step = {
        type: 'step' as const,
        step: 1,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      };
      await expect(log.append(lease, step)).rejects.toSatisfy((e) => isContinuationError(e, 'LEASE_LOST'));
      await log.append(taken, step);
      expect(await log.read('r4')).toHaveLength(2);
    });

    it('recovers a run whose worker died between a model call and its tool: recorded tools never rerun', async () => {
      const crashed = countingAgent();
      // A throwing observer stands in for the process dying right after the 4th model call was recorded.
      await expect(
        runDurably(crashed.agent, log, durablePlanInput({ steps: 5 }), {
          runId: 'r5',
          owner: 'w1',
          leaseMs: 1,
          onEvent: (event) => {
            if (event.type === 'model-call' && event.step === 4) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      expect(crashed.counts).toEqual({ charge: 2, notify: 1 });
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));

      const healthy = countingAgent();
      const store = createMemoryStore();
      const recovered = await recover(log, { durable: healthy.agent }, { store, owner: 'w2' });
      expect(recovered.map((run) => run.result?.status)).toEqual(['completed']);
      // Turns 0..2 ran and were recorded; turn 3 (notify) and turn 4 (charge) run once each.
      expect(healthy.counts).toEqual({ charge: 1, notify: 1 });
      const replay = replayCheckpoints(await log.read('r5'));
      expect(replay.output).toBe('completed 5 steps');
      expect(replay.continuation!.step).toBe(6);
      await expect(recoverRun(healthy.agent, log, 'r5')).rejects.toSatisfy((e) =>
        isContinuationError(e, 'CLAIM_CONFLICT'),
      );
    });

    it('recovers a run that died after its final answer was recorded, without calling the model again', async () => {
      const crashed = countingAgent();
      await expect(
        runDurably(crashed.agent, log, durablePlanInput({ steps: 2 }), {
          runId: 'r6',
          owner: 'w1',
          leaseMs: 1,
          onEvent: (event) => {
            if (event.type === 'model-call' && event.step === 3) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const before = (await log.read('r6')).length;
      const healthy = countingAgent();
      const result = await recoverRun(healthy.agent, log, 'r6', { owner: 'w2' });
      expect(result).toMatchObject({ status: 'completed', output: 'completed 2 steps', step: 3 });
      const after = await log.read('r6');
      expect(after.slice(before)).toEqual([
        { type: 'end', status: 'completed', output: 'completed 2 steps' },
      ]);
      expect(healthy.counts).toEqual({ charge: 0, notify: 0 });
    });

    it('recovers a run that died before its first step, and a resume that died before applying its decisions', async () => {
      const start = {
        type: 'start' as const,
        runId: 'r7',
        agentName: 'durable',
        at: new Date().toISOString(),
      };
      const input = [{ role: 'user' as const, content: durablePlanInput({ steps: 1, approvals: [0] }) }];
      await log.begin({ ...start, input, metadata: { tenant: 'acme' } }, { owner: 'w1', leaseMs: 1 });
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const { agent, counts } = countingAgent();
      const first = await recoverRun(agent, log, 'r7', { owner: 'w2' });
      expect(first.status).toBe('suspended');
      if (first.status !== 'suspended') return;
      expect(first.continuation.metadata).toEqual({ tenant: 'acme' });

      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      await log.begin({ ...start, fromId: first.continuation.id, decisions }, { owner: 'w3', leaseMs: 1 });
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const second = await recoverRun(agent, log, 'r7', { owner: 'w4' });
      expect(second).toMatchObject({ status: 'completed', output: 'completed 1 steps' });
      expect(counts).toEqual({ charge: 1, notify: 0 });
      expect(replayCheckpoints(await log.read('r7')).continuation!.decisions).toHaveLength(1);
    });

    it('gives up a run whose recovery keeps failing after maxAttempts: failed with its error, listed, retried on purpose', async () => {
      const first = countingAgent();
      await expect(
        runDurably(first.agent, log, durablePlanInput({ steps: 6 }), {
          runId: 'r9',
          owner: 'w1',
          leaseMs: 1,
          onEvent: (event) => {
            if (event.type === 'model-call' && event.step === 2) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      const store = createMemoryStore();
      const failing = countingAgent();
      const attempts: Array<[string, boolean, string]> = [];
      for (let i = 0; i < 3; i++) {
        while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
        const recovered = await recover(
          log,
          { durable: failing.agent },
          {
            store,
            owner: `w${i + 2}`,
            leaseMs: 1,
            maxAttempts: 3,
            // The run's ledger is down: every attempt fails the same way.
            onEvent: () => {
              throw new Error('ledger down');
            },
          },
        );
        for (const run of recovered) attempts.push([run.runId, run.failed ?? false, String(run.error)]);
      }
      expect(attempts).toEqual([
        ['r9', false, 'Error: ledger down'],
        ['r9', false, 'Error: ledger down'],
        ['r9', true, 'Error: ledger down'],
      ]);
      expect(await log.status('r9')).toMatchObject({ status: 'failed', attempts: 3, error: 'ledger down' });
      // Given up: no longer picked up, however long it waits.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await log.expired()).toEqual([]);
      expect(await recover(log, { durable: failing.agent }, { store })).toEqual([]);
      const { items } = await store.list({ status: 'failed' });
      expect(items).toMatchObject([{ runId: 'r9', status: 'failed', error: 'ledger down' }]);

      // Once the ledger is back, retried on purpose from its last recorded state.
      await store.retry(items[0]!.id);
      const healthy = countingAgent();
      const claim = await store.claim(items[0]!.id);
      const stored = (await store.load(items[0]!.id))!;
      const result = await resumeDurably(healthy.agent, log, stored.continuation, {}, { owner: 'w9' });
      await store.complete(claim);
      expect(result.status === 'completed' && result.output).toBe('completed 6 steps');
      expect(await log.status('r9')).toMatchObject({ status: 'completed' });
      // Every tool call ran once in all (recorded results are never run again).
      expect(first.counts.charge + failing.counts.charge + healthy.counts.charge).toBe(3);
      expect(first.counts.notify + failing.counts.notify + healthy.counts.notify).toBe(3);
    });

    it('aborts a durable run whose lease another worker took over, and lets it write nothing more', async () => {
      const counts = { charge: 0, notify: 0 };
      let sawAbort = false;
      let started!: () => void;
      const toolStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const agent = durableTestAgent({
        charge: async (_args, ctx) => {
          counts.charge++;
          if (counts.charge > 1) return 'charged';
          started();
          // A run stuck in a tool well past its lease, whose renewals cannot reach the log.
          while (!ctx.signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
          sawAbort = true;
          return 'charged';
        },
        notify: () => {
          counts.notify++;
          return 'notified';
        },
      });
      const stalled: CheckpointLog = Object.create(log);
      let renewals = true;
      stalled.renew = async (lease) => {
        if (!renewals) throw new Error('network partition');
        return log.renew(lease);
      };
      const slow = runDurably(agent, stalled, durablePlanInput({ steps: 2 }), {
        runId: 'r10',
        owner: 'slow',
        leaseMs: 60,
      }).catch((error: unknown) => error);
      await toolStarted;
      renewals = false;
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const taken = await log.takeOver('r10', { owner: 'fast', leaseMs: 60_000 });
      const error = await slow;
      expect(isContinuationError(error, 'LEASE_LOST'), String(error)).toBe(true);
      expect(sawAbort).toBe(true);
      // The slow worker recorded nothing after losing its lease: the new holder appends in order.
      const entries = await log.read('r10');
      expect(entries.map((entry) => entry.type)).toEqual(['start', 'step']);
      await log.append(taken, { type: 'end', status: 'completed' });
    });

    it('fences by step: a continuation the log has moved past is refused, on resumeDurably and resumeStored', async () => {
      const { agent, counts } = countingAgent();
      const store = createMemoryStore();
      const first = await runDurably(agent, log, durablePlanInput({ steps: 2, approvals: [0] }), {
        runId: 'f1',
        owner: 'w1',
        store,
      });
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const approve = { [first.actions[0]!.id]: { type: 'approve' as const } };
      expect((await resumeStored(store, agent, first.continuation.id, approve, { log })).status).toBe(
        'completed',
      );
      const stale = (error: unknown) => isContinuationError(error, 'CLAIM_CONFLICT');
      await expect(resumeDurably(agent, log, first.continuation, approve)).rejects.toSatisfy(stale);
      await store.save(first.continuation); // a stale copy put back in the store
      await expect(resumeStored(store, agent, first.continuation.id, approve, { log })).rejects.toSatisfy(
        stale,
      );
      expect(counts).toEqual({ charge: 1, notify: 1 });
      expect((await store.load(first.continuation.id))?.status).toBe('completed');
    });

    it('(item 10 a) a suspension the log recorded and the store never got is saved by recover', async () => {
      const { agent } = countingAgent();
      const store = createMemoryStore();
      // The worker dies after the log recorded the suspension, before `store.save`.
      const first = await runDurably(agent, log, durablePlanInput({ steps: 2, approvals: [1] }), {
        runId: 'u1',
        owner: 'w1',
      });
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      expect(await log.unsaved?.()).toEqual(['u1']);
      await recover(log, { durable: agent }, { store, owner: 'w2' });
      const { items } = await store.list({ status: 'suspended' });
      expect(items.map((item) => item.id)).toEqual([first.continuation.id]);
      expect(await log.unsaved?.()).toEqual([]);
      // Saved through a store given to the durable run: nothing left to reconcile.
      const second = await runDurably(agent, log, durablePlanInput({ steps: 2, approvals: [0] }), {
        runId: 'u2',
        owner: 'w1',
        store,
      });
      expect(second.status).toBe('suspended');
      expect(await log.unsaved?.()).toEqual([]);
    });

    it('a run that ended after its stored resume died is listed unsaved until recover settles the record', async () => {
      const { agent } = countingAgent();
      const store = createMemoryStore();
      const first = await runDurably(agent, log, durablePlanInput({ steps: 3, approvals: [1] }), {
        runId: 'p1',
        owner: 'w1',
        store,
      });
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const approve = { [first.actions[0]!.id]: { type: 'approve' as const } };
      // A person's resume dies after the approved call ran, holding the record's claim.
      await expect(
        resumeStored(store, agent, first.continuation.id, approve, {
          log,
          owner: 'person',
          // Long enough for a round trip: a claim that lapses before its tool starts starts nothing.
          leaseMs: 50,
          onEvent: (event) => {
            if (event.type === 'tool-result') throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      // Another process finishes the run without the store: the record still looks waiting.
      expect((await recoverRun(agent, log, 'p1', { owner: 'w2' })).status).toBe('completed');
      expect((await store.list({ status: 'suspended' })).items.map((item) => item.id)).toEqual([
        first.continuation.id,
      ]);
      expect(await log.unsaved?.()).toEqual(['p1']);
      await recover(log, { durable: agent }, { store, owner: 'w3' });
      expect((await store.list({ status: 'suspended' })).items).toEqual([]);
      expect((await store.load(first.continuation.id))?.status).toBe('completed');
      expect(await log.unsaved?.()).toEqual([]);
    });

    it('a run given up in the log whose store record was never written is listed unsaved, and recover saves it as failed once', async () => {
      const first = countingAgent();
      await expect(
        runDurably(first.agent, log, durablePlanInput({ steps: 3 }), {
          runId: 'f1',
          owner: 'w1',
          leaseMs: 1,
          onEvent: (event) => {
            if (event.type === 'model-call' && event.step === 2) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      // Given up without a store: the log says failed, no store holds the failed record (as when
      // the worker dies between `log.fail` and the store's write).
      const failing = countingAgent();
      const [given] = await recover(
        log,
        { durable: failing.agent },
        {
          owner: 'w2',
          leaseMs: 1,
          maxAttempts: 1,
          onEvent: () => {
            throw new Error('ledger down');
          },
        },
      );
      expect(given).toMatchObject({ runId: 'f1', failed: true });
      expect(await log.status('f1')).toMatchObject({ status: 'failed', error: 'ledger down' });
      expect(await log.unsaved?.()).toEqual(['f1']);

      const store = createMemoryStore();
      expect(await recover(log, { durable: failing.agent }, { store, owner: 'w3' })).toEqual([]);
      const { items } = await store.list({ status: 'failed' });
      const last = replayCheckpoints(await log.read('f1')).continuation!;
      expect(items).toMatchObject([{ id: last.id, runId: 'f1', status: 'failed', error: 'ledger down' }]);
      expect(await log.unsaved?.()).toEqual([]);
      // Saved once: a later recover finds nothing to reconcile, and the log still says failed.
      await recover(log, { durable: failing.agent }, { store, owner: 'w4' });
      expect((await store.list({})).items).toHaveLength(1);
      expect(await log.status('f1')).toMatchObject({ status: 'failed' });
      expect(first.counts.charge + failing.counts.charge + first.counts.notify + failing.counts.notify).toBe(
        2,
      );
    });

    it('(item 10 b) a resumeStored with the log killed mid-run: recover finishes it and completes the record', async () => {
      const store = createMemoryStore();
      const counts = { charge: 0, notify: 0 };
      // The dying worker's view of the log and the store: nothing it writes or renews arrives once dead.
      let dead = false;
      const hang = () => new Promise<never>(() => {});
      const deadLog: CheckpointLog = Object.create(log);
      deadLog.append = (lease, entry) => (dead ? hang() : log.append(lease, entry));
      deadLog.renew = (lease) => (dead ? hang() : log.renew(lease));
      const deadStore: typeof store = Object.create(store);
      deadStore.renew = (claim, options) => (dead ? hang() : store.renew(claim, options));
      const agent = durableTestAgent({
        charge: async () => {
          counts.charge++;
          if (counts.charge > 1) return 'charged';
          // The process dies inside the approved tool, after its side effect.
          dead = true;
          return hang();
        },
        notify: () => {
          counts.notify++;
          return 'notified';
        },
      });
      const first = await runDurably(agent, log, durablePlanInput({ steps: 2, approvals: [0] }), {
        runId: 'k1',
        owner: 'w1',
        store,
      });
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      void resumeStored(
        deadStore,
        agent,
        first.continuation.id,
        { [first.actions[0]!.id]: { type: 'approve' } },
        {
          log: deadLog,
          owner: 'w1',
          leaseMs: 30,
        },
      );
      while (counts.charge === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      while ((await log.expired()).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const [recovered] = await recover(log, { durable: agent }, { store, owner: 'w2', leaseMs: 5_000 });
      expect(recovered?.result?.status).toBe('completed');
      expect((await store.load(first.continuation.id))?.status).toBe('completed');
      expect((await store.list({ status: ['suspended', 'claimed'] })).items).toEqual([]);
      // The documented at-least-once edge (it died before the result was recorded), once more at most.
      expect(counts).toEqual({ charge: 2, notify: 1 });
    });

    it('refuses an inconsistent log with a typed error', async () => {
      expect(() => replayCheckpoints([])).toThrow(expect.objectContaining({ code: 'INVALID_CONTINUATION' }));
      const start = {
        type: 'start' as const,
        runId: 'r8',
        agentName: 'durable',
        at: new Date().toISOString(),
      };
      const resumeUnknown = [start, { ...start, fromId: 'not-a-suspension', decisions: {} }];
      expect(() => replayCheckpoints([{ ...start, input: [] }, ...resumeUnknown.slice(1)])).toThrow(
        expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
      );
      const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
      const afterEnd = [
        { ...start, input: [] },
        { type: 'end' as const, status: 'completed' as const },
        { type: 'step' as const, step: 1, usage },
      ];
      expect(() => replayCheckpoints(afterEnd)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
      );
    });
  });
}

/** Opens a log over the same tables with the given encryption (or none), and reads its raw stored entries. */
export type EncryptedCheckpointLogFactory = () => Promise<{
  open: (encryption?: Encryption) => CheckpointLog;
  /** Every stored entry's body, as the database holds it. */
  rawEntries: () => Promise<string[]>;
  cleanup: () => Promise<void>;
}>;

/**
 * Encryption at rest of a checkpoint log (issue 11 item 6): no conversation text in the stored
 * bytes, key rotation by key id, and typed errors for a missing or wrong key.
 *
 * @example
 * ```ts
 * runEncryptedCheckpointLogContract('sqlite', async () => ({ open: (encryption) => createSqliteCheckpointLog({ database: file, encryption }), rawEntries, cleanup }));
 * ```
 */
export function runEncryptedCheckpointLogContract(
  name: string,
  factory: EncryptedCheckpointLogFactory,
): void {
  const key = (byte: number) => new Uint8Array(32).fill(byte);
  const marker = 'secret-ledger-entry';
  const agent = () =>
    durableTestAgent({ charge: (args) => `${marker} ${args.n}`, notify: (args) => `${marker} ${args.n}` });

  describe(`encrypted checkpoint log: ${name}`, () => {
    let context: Awaited<ReturnType<EncryptedCheckpointLogFactory>>;
    beforeEach(async () => {
      context = await factory();
    });
    afterEach(async () => {
      await context.cleanup();
    });

    it('stores no conversation text, and rotates keys by key id', async () => {
      const first = createEncryption({ keys: { k1: key(1) }, currentKeyId: 'k1' });
      const log1 = context.open(first);
      const suspended = await runDurably(agent(), log1, durablePlanInput({ steps: 3, approvals: [2] }), {
        runId: 'e1',
        owner: 'w1',
      });
      expect(suspended.status).toBe('suspended');
      const raw = await context.rawEntries();
      expect(raw.length).toBeGreaterThan(4);
      for (const body of raw) {
        expect(body).not.toContain(marker);
        expect(body).not.toContain('steps');
        expect(body).not.toContain('charge');
        expect(encryptionKeyIdOf(body)).toBe('k1');
      }

      // Rotated: k2 writes, k1 still reads the run's earlier entries, and the run goes on.
      const rotated = createEncryption({ keys: { k1: key(1), k2: key(2) }, currentKeyId: 'k2' });
      const log2 = context.open(rotated);
      if (suspended.status !== 'suspended') return;
      const done = await resumeDurably(agent(), log2, suspended.continuation, {
        [suspended.actions[0]!.id]: { type: 'approve' },
      });
      expect(done).toMatchObject({ status: 'completed', output: 'completed 3 steps' });
      const keyIds = (await context.rawEntries()).map((body) => encryptionKeyIdOf(body));
      expect(new Set(keyIds)).toEqual(new Set(['k1', 'k2']));
      const replay = replayCheckpoints(await log2.read('e1'));
      expect(replay.status).toBe('completed');
      expect(JSON.stringify(replay.continuation!.messages)).toContain(marker);

      // Without the old key, or without any encryption, reading fails with a typed error.
      const onlyNew = context.open(createEncryption({ keys: { k2: key(2) }, currentKeyId: 'k2' }));
      await expect(onlyNew.read('e1')).rejects.toSatisfy((e) => isContinuationError(e, 'DECRYPT_FAILED'));
      await expect(context.open().read('e1')).rejects.toSatisfy((e) =>
        isContinuationError(e, 'DECRYPT_FAILED'),
      );
    });
  });
}
