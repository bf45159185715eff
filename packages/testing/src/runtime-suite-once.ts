/**
 * The runtime suite's tests of `resumeOnce` and `streamOnce`: a continuation that comes back from
 * outside the store is resumed at most once, however often and however concurrently it is sent.
 */
import {
  type ContinuationStore,
  type DeadlinePolicy,
  type Decisions,
  type Runtime,
  type RuntimeConfig,
  type SuspendedResult,
  sealContinuation,
} from '@agent-continuations/core';
import { expect, it } from 'vitest';
import { durablePlanInput } from './durable-agent';
import { expectCode, outcome } from './store-contract-fixtures';

/** What the runtime suite's `setUp` gives these tests. */
export type OnceSetUp = (extra?: Partial<RuntimeConfig>) => Promise<{
  runtime: Runtime;
  store: ContinuationStore;
  runs: { charge: number; notify: number };
  config: RuntimeConfig;
}>;

/** Register the `resumeOnce` / `streamOnce` tests of the runtime suite. */
export function onceTests(setUp: OnceSetUp, sealed: boolean): void {
  /** A run that suspends for approval and is not saved: its continuation travels outside. */
  const outside = async (runtime: Runtime, deadlines?: DeadlinePolicy) => {
    const plan = durablePlanInput({ steps: 2, approvals: [0] });
    const result = await runtime.agent('durable').run(plan, deadlines ? { deadlines } : {});
    if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
    return result as SuspendedResult;
  };
  const approve = (result: SuspendedResult): Decisions => ({
    [result.actions[0]!.id]: { type: 'approve', by: 'ann' },
  });

  if (!sealed) {
    it('resumeOnce needs a seal to verify what comes from outside: refused, nothing saved or run', async () => {
      const { runtime, store, runs } = await setUp();
      const result = await outside(runtime);
      await expectCode(runtime.resumeOnce(result.continuation, approve(result)), 'INVALID_OPERATION');
      await expectCode(runtime.streamOnce(result.continuation, approve(result)), 'INVALID_OPERATION');
      expect(await store.load(result.continuation.id)).toBeUndefined();
      expect(runs).toEqual({ charge: 0, notify: 0 });
    });
    return;
  }

  it('resumeOnce saves a continuation from outside, resumes it once, and a second use runs nothing', async () => {
    const { runtime, store, runs } = await setUp();
    const result = await outside(runtime);
    expect(await store.load(result.continuation.id)).toBeUndefined();
    const text = JSON.stringify(result.continuation);
    expect((await runtime.resumeOnce(text, approve(result))).status).toBe('completed');
    expect(runs).toEqual({ charge: 1, notify: 1 });
    expect(await store.load(result.continuation.id)).toMatchObject({ status: 'completed', resumedBy: 'app' });
    await expectCode(runtime.resumeOnce(text, approve(result)), 'CLAIM_CONFLICT');
    await expectCode(runtime.streamOnce(result.continuation, approve(result)), 'CLAIM_CONFLICT');
    expect(runs).toEqual({ charge: 1, notify: 1 });
  });

  it('among concurrent uses of one continuation exactly one runs; the others get CLAIM_CONFLICT', async () => {
    const { runtime, runs } = await setUp();
    const result = await outside(runtime);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        outcome(
          i % 2 === 0
            ? runtime.resumeOnce(result.continuation, approve(result))
            : runtime.streamOnce(result.continuation, approve(result)).then((run) => run.result),
        ),
      ),
    );
    expect(outcomes.filter((entry) => entry.ok)).toHaveLength(1);
    expect(outcomes.filter((entry) => !entry.ok).map((entry) => !entry.ok && entry.code)).toEqual(
      Array(7).fill('CLAIM_CONFLICT'),
    );
    expect(runs).toEqual({ charge: 1, notify: 1 });
  });

  it('a record already in the store is kept: what is sent never replaces it', async () => {
    const { runtime, store, runs, config } = await setUp();
    const started = await runtime.start('durable', durablePlanInput({ steps: 2, approvals: [0] }));
    if (started.status !== 'suspended') throw new Error(`expected a suspension, got ${started.status}`);
    // The same continuation with other metadata, sealed anew with the runtime's own secret.
    const sent = await sealContinuation({ ...started.continuation, metadata: { sent: true } }, config.seal!);
    expect((await runtime.resumeOnce(sent, approve(started))).status).toBe('completed');
    expect(runs).toEqual({ charge: 1, notify: 1 });
    const stored = await store.load(started.continuation.id);
    expect(stored).toMatchObject({ status: 'completed', metadata: {} });
    expect(stored?.continuation.metadata).toEqual({});
    await expectCode(runtime.resumeOnce(started.continuation, approve(started)), 'CLAIM_CONFLICT');
    expect(runs).toEqual({ charge: 1, notify: 1 });
  });

  it('a store without saveIfAbsent cannot guard: refused, nothing saved or run', async () => {
    const { store } = await setUp();
    const { saveIfAbsent: _, ...without } = store;
    const { runtime, runs } = await setUp({ store: without });
    const result = await outside(runtime);
    await expectCode(runtime.resumeOnce(result.continuation, approve(result)), 'INVALID_OPERATION');
    expect(await store.load(result.continuation.id)).toBeUndefined();
    expect(runs).toEqual({ charge: 0, notify: 0 });
  });

  it("refuses an altered continuation, another agent's, and one past its deadline, before saving anything", async () => {
    const { runtime, store, runs, config } = await setUp();
    const result = await outside(runtime, () => 60_000);
    const altered = structuredClone(result.continuation);
    altered.metadata = { forged: true };
    await expectCode(runtime.resumeOnce(altered, approve(result)), 'SEAL_MISMATCH');
    const stranger = { ...result.continuation, agent: { ...result.continuation.agent, name: 'nobody' } };
    await expectCode(runtime.resumeOnce(await sealContinuation(stranger, config.seal!), {}), 'NOT_FOUND');
    expect(await store.load(result.continuation.id)).toBeUndefined();
    // The record it saves expires with the deadline of its actions.
    const deadline = result.actions[0]!.deadline;
    expect(Date.parse(deadline!)).toBeGreaterThan(Date.now());
    expect((await runtime.resumeOnce(result.continuation, {})).status).toBe('suspended');
    expect((await store.load(result.continuation.id))?.expiresAt).toBe(deadline);

    const overdue = await outside(runtime, () => new Date(Date.now() - 1_000));
    await expectCode(runtime.resumeOnce(overdue.continuation, approve(overdue)), 'EXPIRED');
    expect(await store.load(overdue.continuation.id)).toBeUndefined();
    expect(runs).toEqual({ charge: 0, notify: 0 });
  });
}
