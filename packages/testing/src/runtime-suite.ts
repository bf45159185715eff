/**
 * The runtime suite: `createRuntime` over a given store, each method with and without a checkpoint
 * log and with and without a seal, counting how often each tool ran. A store's test file hands it a
 * factory, as it does for the store contract suite.
 */
import {
  type CheckpointLog,
  type ContinuationStore,
  createApprovalLinks,
  createRuntime,
  type Runtime,
  type RuntimeConfig,
  resumeDurably,
  type SuspendNotice,
} from '@agent-continuations/core';
import { afterEach, describe, expect, it } from 'vitest';
import { durablePlanInput, durableTestAgent } from './durable-agent';
import { onceTests } from './runtime-suite-once';
import { createMemoryCheckpointLog } from './simulation/memory-log';
import { expectCode } from './store-contract-fixtures';

/** A store (and a log sharing its database, when there is one) for one test of the runtime suite. */
export interface RuntimeUnderTest {
  store: ContinuationStore;
  /** A checkpoint log for the logged runs; an in-memory one when the store has none of its own. */
  log?: CheckpointLog;
  cleanup?: () => Promise<void>;
}

/** Makes a fresh {@link RuntimeUnderTest} for each test. */
export type RuntimeSuiteFactory = () => RuntimeUnderTest | Promise<RuntimeUnderTest>;

const SECRET = 'runtime-suite-seal-secret';

/**
 * Register the runtime suite for a store.
 *
 * @example
 * ```ts
 * import { runRuntimeSuite } from '@agent-continuations/testing';
 * runRuntimeSuite('sqlite', () => {
 *   const database = new Database(':memory:');
 *   return { store: createSqliteStore({ database }), log: createSqliteCheckpointLog({ database }) };
 * });
 * ```
 */
export function runRuntimeSuite(name: string, factory: RuntimeSuiteFactory): void {
  for (const logged of [false, true]) {
    for (const sealed of [false, true]) {
      describe(`runtime on ${name} (${logged ? 'with' : 'without'} a log, ${sealed ? 'with' : 'without'} a seal)`, () => {
        runtimeTests(factory, logged, sealed);
      });
    }
  }
}

function runtimeTests(factory: RuntimeSuiteFactory, logged: boolean, sealed: boolean): void {
  let cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups) await cleanup();
    cleanups = [];
  });

  /** A runtime over a fresh store, the durable test agent in it, and what its tools and notices saw. */
  const setUp = async (extra: Partial<RuntimeConfig> = {}) => {
    const opened = await factory();
    if (opened.cleanup) cleanups.push(opened.cleanup);
    const runs = { charge: 0, notify: 0 };
    const notices: SuspendNotice[] = [];
    const agent = durableTestAgent({
      charge: () => {
        runs.charge++;
        return 'charged';
      },
      notify: () => {
        runs.notify++;
        return 'sent';
      },
    });
    const log = logged ? (opened.log ?? createMemoryCheckpointLog()) : undefined;
    const config: RuntimeConfig = {
      agents: [agent],
      store: opened.store,
      ...(log ? { log } : {}),
      ...(sealed ? { seal: { secret: SECRET } } : {}),
      links: createApprovalLinks({
        secret: 'runtime-suite-links-secret',
        baseUrl: 'https://desk.example/act',
      }),
      notify: (notice) => {
        notices.push(notice);
      },
      owner: 'app',
      ...extra,
    };
    const runtime = createRuntime(config);
    return { runtime, store: opened.store, runs, notices, config, agent, log };
  };

  /** Start a run that charges on turn 0 once approved, then notifies, then answers. */
  const startApproval = async (runtime: Runtime) => {
    const result = await runtime.start('durable', durablePlanInput({ steps: 2, approvals: [0] }), {
      metadata: { team: 'ops' },
    });
    if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
    return result;
  };

  onceTests(setUp, sealed);

  if (logged) {
    it('the inbox never offers an action of a suspension the log has moved past', async () => {
      const { runtime, agent, log } = await setUp();
      const result = await startApproval(runtime);
      // The run goes on in the log without the store (as a worker that died before settling it).
      const approve = { [result.actions[0]!.id]: { type: 'approve' as const } };
      expect((await resumeDurably(agent, log!, result.continuation, approve)).status).toBe('completed');
      expect((await runtime.inbox()).items).toEqual([]);
      expect((await runtime.get(result.continuation.id))?.actions).toEqual([]);
    });
  }

  it('start saves the suspension with its metadata, notifies it with links, and lists it in the inbox', async () => {
    const { runtime, store, notices, runs } = await setUp();
    const result = await startApproval(runtime);
    const stored = await store.load(result.continuation.id);
    expect(stored?.status).toBe('suspended');
    expect(stored?.metadata).toEqual({ team: 'ops' });
    expect(stored?.continuation.seal === undefined).toBe(!sealed);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.actions[0]!.links?.approve).toMatch(/^https:\/\/desk\.example\/act/);
    const inbox = await runtime.inbox({ metadata: { team: 'ops' } });
    expect(inbox.items.map((item) => [item.continuationId, item.action.toolName])).toEqual([
      [result.continuation.id, 'charge'],
    ]);
    expect((await runtime.inbox({ metadata: { team: 'sales' } })).items).toEqual([]);
    const view = await runtime.get(result.continuation.id);
    expect(view?.actions.map((action) => action.id)).toEqual([result.actions[0]!.id]);
    expect(await runtime.get('no-such-id')).toBeUndefined();
    expect(runs).toEqual({ charge: 0, notify: 0 });
  });

  it("a run's own save options win over the runtime's: its suspension expires when it says", async () => {
    const { runtime, store } = await setUp({ save: { expiresAt: '2999-01-01T00:00:00.000Z' } });
    const expiresAt = '2998-06-01T00:00:00.000Z';
    const own = await runtime.start('durable', durablePlanInput({ steps: 2, approvals: [0] }), {
      save: { expiresAt },
    });
    const shared = await startApproval(runtime);
    if (own.status !== 'suspended') throw new Error(`expected a suspension, got ${own.status}`);
    expect((await store.load(own.continuation.id))?.expiresAt).toBe(expiresAt);
    expect((await store.load(shared.continuation.id))?.expiresAt).toBe('2999-01-01T00:00:00.000Z');
  });

  it('the inbox pages with the store cursor', async () => {
    const { runtime } = await setUp();
    for (let i = 0; i < 3; i++) await startApproval(runtime);
    const first = await runtime.inbox({ limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await runtime.inbox({ limit: 2, cursor: first.cursor! });
    expect(second.items).toHaveLength(1);
    expect(second.cursor).toBeUndefined();
  });

  it('resume runs each approved tool once, settles the record, and a second resume runs nothing', async () => {
    const { runtime, store, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const decisions = { [actions[0]!.id]: { type: 'approve' as const, by: 'ann' } };
    const result = await runtime.resume(continuation.id, decisions);
    expect(result.status).toBe('completed');
    expect(runs).toEqual({ charge: 1, notify: 1 });
    expect((await store.load(continuation.id))?.status).toBe('completed');
    await expectCode(runtime.resume(continuation.id, decisions), 'CLAIM_CONFLICT');
    expect(runs).toEqual({ charge: 1, notify: 1 });
    expect((await runtime.inbox()).items).toEqual([]);
  });

  it('outcome tells what became of a decided record: who decided what, the result, and the answer with a log', async () => {
    const { runtime, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    expect(await runtime.outcome(continuation.id)).toEqual({ decisions: [], results: [] });
    const decisions = { [actions[0]!.id]: { type: 'approve' as const, by: 'ann', reason: 'within budget' } };
    expect((await runtime.resume(continuation.id, decisions)).status).toBe('completed');
    expect(runs.charge).toBe(1);
    const outcome = await runtime.outcome(continuation.id);
    if (logged) {
      // The log keeps the run to its end: the decision, the charge's result and the final answer.
      expect(outcome?.decisions).toEqual([
        expect.objectContaining({
          actionId: actions[0]!.id,
          type: 'approve',
          by: 'ann',
          reason: 'within budget',
        }),
      ]);
      expect(outcome?.results).toEqual([
        {
          callId: actions[0]!.id,
          toolName: 'charge',
          output: expect.objectContaining({ effect: 'charged', n: 0 }),
        },
      ]);
      expect(outcome?.output).toBe('completed 2 steps');
    } else {
      // Without a log a completed run leaves nothing in the store to tell more.
      expect(outcome).toEqual({ decisions: [], results: [] });
    }
    expect(await runtime.outcome('no-such-id')).toBeUndefined();
  });

  it('a resume under a claim taken earlier (a hand-off) goes on under it; a lapsed one another took is LEASE_LOST', async () => {
    const { runtime, store, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const decisions = { [actions[0]!.id]: { type: 'approve' as const, by: 'ann' } };
    const handedOff = await store.claim(continuation.id, { owner: 'handed-off', leaseMs: 60_000 });
    expect((await runtime.inbox()).items).toEqual([]);
    await expectCode(runtime.resume(continuation.id, decisions), 'CLAIM_CONFLICT');
    const other = await startApproval(runtime);
    await expectCode(
      runtime.resume(other.continuation.id, decisions, { claim: handedOff }),
      'INVALID_OPERATION',
    );
    expect(runs.charge).toBe(0);
    expect((await runtime.resume(continuation.id, decisions, { claim: handedOff })).status).toBe('completed');
    expect(runs.charge).toBe(1);
    expect((await store.load(continuation.id))?.status).toBe('completed');
    // A hand-off's claim that lapsed and was taken by another resumer is no longer held.
    const lapsed = await store.claim(other.continuation.id, { owner: 'handed-off', leaseMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const taken = await store.claim(other.continuation.id, { owner: 'someone' });
    await expectCode(
      runtime.resume(
        other.continuation.id,
        { [other.actions[0]!.id]: { type: 'approve' as const } },
        { claim: lapsed },
      ),
      'LEASE_LOST',
    );
    await store.release(taken);
    expect(runs.charge).toBe(1);
  });

  it('a resume claims in the name it is given (the deciding person): the store keeps it as resumedBy', async () => {
    const { runtime, store, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const decisions = { [actions[0]!.id]: { type: 'approve' as const, by: 'ann' } };
    expect((await runtime.resume(continuation.id, decisions, { owner: 'ann' })).status).toBe('completed');
    expect(runs.charge).toBe(1);
    expect((await store.load(continuation.id))?.resumedBy).toBe('ann');
    const other = await startApproval(runtime);
    await runtime.resume(other.continuation.id, { [other.actions[0]!.id]: { type: 'approve' as const } });
    expect((await store.load(other.continuation.id))?.resumedBy).toBe('app');
  });

  it('cancel ends the whole run: every action rejected with the reason, nothing run, listed as cancelled', async () => {
    const { runtime, store, runs, log } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const cancelled = await runtime.cancel(continuation.id, { by: 'ann', reason: 'Duplicate request' });
    expect(cancelled).toMatchObject({ status: 'cancelled', runId: continuation.runId, by: 'ann' });
    expect(cancelled.rejected.map((entry) => [entry.actionId, entry.type, entry.by, entry.reason])).toEqual([
      [actions[0]!.id, 'reject', 'ann', 'Duplicate request'],
    ]);
    expect(runs).toEqual({ charge: 0, notify: 0 });
    expect(await store.load(continuation.id)).toMatchObject({
      status: 'cancelled',
      resumedBy: 'ann',
      reason: 'Duplicate request',
    });
    expect((await store.list({ status: 'cancelled' })).items.map((item) => item.id)).toEqual([
      continuation.id,
    ]);
    expect((await runtime.inbox()).items).toEqual([]);
    expect((await runtime.get(continuation.id))?.actions).toEqual([]);
    if (log) expect((await log.status(continuation.runId))?.status).toBe('rejected');
    // Nothing can resume or cancel it again.
    const approve = { [actions[0]!.id]: { type: 'approve' as const } };
    await expectCode(runtime.resume(continuation.id, approve), 'CLAIM_CONFLICT');
    await expectCode(runtime.cancel(continuation.id), 'CLAIM_CONFLICT');
    await expectCode(runtime.cancel('no-such-id'), 'NOT_FOUND');
    expect(runs).toEqual({ charge: 0, notify: 0 });
  });

  it('a cancel racing a resume: exactly one wins, and the tool ran only if the resume won', async () => {
    const { runtime, store, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const approve = { [actions[0]!.id]: { type: 'approve' as const } };
    const [resumed, cancelled] = await Promise.allSettled([
      runtime.resume(continuation.id, approve),
      runtime.cancel(continuation.id, { by: 'bob' }),
    ]);
    expect([resumed.status, cancelled.status].sort()).toEqual(['fulfilled', 'rejected']);
    const status = (await store.load(continuation.id))?.status;
    expect(status).toBe(resumed.status === 'fulfilled' ? 'completed' : 'cancelled');
    expect(runs.charge).toBe(resumed.status === 'fulfilled' ? 1 : 0);
  });

  it('two resumes at once: one runs, the other fails with CLAIM_CONFLICT', async () => {
    const { runtime, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const decisions = { [actions[0]!.id]: { type: 'approve' as const } };
    const outcomes = await Promise.allSettled([
      runtime.resume(continuation.id, decisions),
      runtime.resume(continuation.id, decisions),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(runs.charge).toBe(1);
  });

  it('stream yields the resumed run as it goes and settles the record before its result', async () => {
    const { runtime, store, runs } = await setUp();
    const { continuation, actions } = await startApproval(runtime);
    const run = await runtime.stream(continuation.id, (stored) => ({
      [stored.pending[0]!.toolCallId]: { type: 'approve' },
    }));
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    expect(types).toContain('tool-result');
    expect(types.at(-1)).toBe('result');
    expect((await run.result).status).toBe('completed');
    expect(runs).toEqual({ charge: 1, notify: 1 });
    expect((await store.load(continuation.id))?.status).toBe('completed');
    expect(actions).toHaveLength(1);
  });

  it('a suspension after a resume is saved, sealed as configured, and notified', async () => {
    const { runtime, store, notices, runs } = await setUp();
    const input = durablePlanInput({ steps: 3, approvals: [0, 2] });
    const first = await runtime.start('durable', input);
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const second = await runtime.resume(first.continuation.id, {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    if (second.status !== 'suspended') throw new Error('expected a second suspension');
    const stored = await store.load(second.continuation.id);
    expect(stored?.status).toBe('suspended');
    expect(stored?.continuation.seal === undefined).toBe(!sealed);
    expect(notices.map((notice) => notice.continuationId)).toEqual([
      first.continuation.id,
      second.continuation.id,
    ]);
    expect(runs).toEqual({ charge: 1, notify: 1 });
  });

  if (sealed) {
    it('a stored record altered outside the runtime is refused before anything runs', async () => {
      const { runtime, store, runs } = await setUp();
      const { continuation, actions } = await startApproval(runtime);
      // The same record, with its tool arguments changed and the seal kept: a tampered row.
      const forged = JSON.parse(JSON.stringify(continuation).replace('"payload":0', '"payload":7'));
      forged.id = `${continuation.id}-forged`;
      await store.save(forged);
      await expectCode(runtime.resume(forged.id, { [actions[0]!.id]: { type: 'approve' } }), 'SEAL_MISMATCH');
      expect(runs.charge).toBe(0);
      // Refused before anything ran: the record can still be decided on.
      expect((await store.load(forged.id))?.status).toBe('suspended');
    });
  }

  it('deadlines reach every suspension, and the sweep rejects an overdue action without running it', async () => {
    const { runtime, store, runs } = await setUp({ deadlines: () => 60_000 });
    const { continuation, actions } = await startApproval(runtime);
    expect(actions[0]!.deadline).toBeDefined();
    expect((await runtime.sweep({ now: new Date() })).rejected).toEqual([]);
    const report = await runtime.sweep({ now: new Date(Date.now() + 120_000) });
    expect(report.rejected).toEqual([{ continuationId: continuation.id, actionIds: [actions[0]!.id] }]);
    expect(runs.charge).toBe(0);
    expect((await store.load(continuation.id))?.status).toBe('completed');
  });

  it('an unknown agent name or id is a NOT_FOUND error', async () => {
    const { runtime } = await setUp();
    await expectCode(runtime.start('nobody', 'hi'), 'NOT_FOUND');
    await expectCode(runtime.resume('no-such-id'), 'NOT_FOUND');
  });

  if (logged) {
    it('recover finishes a run whose worker died; a tool whose result was recorded does not run again', async () => {
      const { runtime, config, store, runs } = await setUp();
      const log = runtime.log!;
      let dead = false;
      // The dying worker's view of the log: once dead, no write of it ever settles.
      const dying = new Proxy(log, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => (dead ? new Promise(() => {}) : value.apply(target, args));
        },
      });
      const worker = createRuntime({
        ...config,
        log: dying,
        owner: 'dying',
        agents: [
          durableTestAgent({
            charge: () => {
              runs.charge++;
            },
            notify: () => {
              runs.notify++;
              dead = true;
            },
          }),
        ],
      });
      void worker.start('durable', durablePlanInput({ steps: 2 }), { leaseMs: 150 });
      while (!dead) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events: string[] = [];
      const recovered = await runtime.recover({ onEvent: (event) => void events.push(event.type) });
      expect(recovered.map((run) => run.result?.status)).toEqual(['completed']);
      // The recovering call is told of the run's steps, as a start or a resume is.
      expect(events).toContain('tool-result');
      // charge's result was recorded: it never runs again; notify's was not, so it ran again.
      expect(runs).toEqual({ charge: 1, notify: 2 });
      expect((await store.list({ status: 'suspended' })).items).toEqual([]);
    });

    it('recover of a run the log does not know is NOT_FOUND, naming the run', async () => {
      const { runtime } = await setUp();
      const error = await runtime.recover({ runId: 'no-such-run' }).catch((caught: unknown) => caught);
      await expectCode(Promise.reject(error), 'NOT_FOUND');
      expect((error as Error).message).toContain('"no-such-run"');
    });
  } else {
    it('recover needs a log, and so does a lease: neither is dropped in silence', async () => {
      const { runtime, runs } = await setUp();
      await expectCode(runtime.recover(), 'INVALID_OPERATION');
      await expectCode(
        runtime.start('durable', durablePlanInput({ steps: 1 }), { leaseMs: 5_000 }),
        'INVALID_OPERATION',
      );
      expect(runs).toEqual({ charge: 0, notify: 0 });
    });
  }
}
