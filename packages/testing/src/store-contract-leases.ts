/**
 * The store contract's lease tests: claims refused for a typed reason while leases lapse under a
 * race, renewal, fencing of a claimant that lost its lease, failed continuations and their retry,
 * and `resumeStored` holding its claim through a slow tool and aborting when it loses it.
 */
import {
  type Claim,
  type Continuation,
  type ContinuationStore,
  resumeStored,
  streamStored,
  type ToolContext,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import {
  eventually,
  expectCode,
  outcome,
  payrollAgent,
  startPayroll,
  toolRuns,
  variant,
} from './store-contract-fixtures';
import type { OpenedStore, StoreContractContext, StoreContractOptions } from './store-contract-harness';

type Open = (context?: StoreContractContext) => Promise<OpenedStore>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Register the lease, renewal, fencing and failed-run tests. */
export function leaseTests(open: Open, base: () => Continuation, options: StoreContractOptions): void {
  const connections = options.connections ?? 5;

  const instances = async (opened: OpenedStore, count: number): Promise<ContinuationStore[]> => {
    if (!opened.store.capabilities.multiProcess) return [opened.store];
    const more = await Promise.all(Array.from({ length: count - 1 }, () => opened.connect()));
    return [opened.store, ...more];
  };

  describe('leases', () => {
    it('refuses claims for a typed reason while a lease lapses in the middle of a race, round after round', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      const stores = await instances(opened, connections);
      for (let round = 0; round < 6; round++) {
        const id = `race-${round}`;
        await opened.store.save(variant(base(), { id }));
        const first = await opened.store.claim(id, { owner: 'holder', leaseMs: 30 + round * 10 });
        // Claimers keep trying, each right after its last refusal, until one wins after the lease
        // lapsed, so many attempts land on the instant the lease ends.
        let won = false;
        const tallies = await Promise.all(
          Array.from({ length: 12 }, async (_, i) => {
            const store = stores[i % stores.length]!;
            const seen: string[] = [];
            const deadline = Date.now() + 10_000;
            while (!won && Date.now() < deadline) {
              const result = await outcome(store.claim(id, { owner: `racer-${i}` }));
              seen.push(result.ok ? 'won' : result.code);
              if (result.ok) won = true;
            }
            return seen;
          }),
        );
        const seen = tallies.flat();
        expect(new Set(seen), `outcomes of round ${round}`).toEqual(
          new Set(seen.filter((code) => code === 'won' || code === 'CLAIM_CONFLICT')),
        );
        expect(
          seen.filter((code) => code === 'won'),
          `winners of round ${round}`,
        ).toHaveLength(1);
        await expectCode(opened.store.complete(first), 'LEASE_LOST');
      }
    });

    it('renews a held claim: same token, a later lease, still exclusive', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'r1' }));
      const claim = await store.claim('r1', { owner: 'w1', leaseMs: 1_000 });
      const renewed = await store.renew(claim, { leaseMs: 60_000 });
      expect(renewed).toMatchObject({ id: 'r1', owner: 'w1', token: claim.token });
      expect(Date.parse(renewed.leaseUntil)).toBeGreaterThan(Date.parse(claim.leaseUntil));
      expect((await store.load('r1'))?.status).toBe('claimed');
      await expectCode(store.claim('r1', { owner: 'w2' }), 'CLAIM_CONFLICT');
      await store.complete(renewed);
      await expectCode(store.renew(renewed), 'LEASE_LOST');
    });

    it('keeps a lapsed claim that nobody took: renewing it extends it', async (context) => {
      const { store } = await open();
      if (!store.capabilities.leases) return context.skip();
      await store.save(variant(base(), { id: 'r2' }));
      const claim = await store.claim('r2', { leaseMs: 30 });
      await eventually(async () => (await store.load('r2'))?.status === 'suspended', 'the lease lapses');
      const renewed = await store.renew(claim, { leaseMs: 60_000 });
      expect((await store.load('r2'))?.status).toBe('claimed');
      await expectCode(store.claim('r2'), 'CLAIM_CONFLICT');
      await store.complete(renewed);
      expect((await store.load('r2'))?.status).toBe('completed');
    });

    it('fences a claimant whose lease another worker took: it cannot renew, complete, save, release or fail', async (context) => {
      const opened = await open();
      const { store } = opened;
      if (!store.capabilities.leases) return context.skip();
      const [, other] = await instances(opened, 2);
      await store.save(variant(base(), { id: 'f1' }));
      const stale = await store.claim('f1', { owner: 'slow', leaseMs: 30 });
      let fresh: Claim | undefined;
      await eventually(async () => {
        const result = await outcome((other ?? store).claim('f1', { owner: 'fast' }));
        if (result.ok) fresh = result.value;
        return result.ok;
      }, 'the 30 ms lease lapses and another worker takes it');
      const next = variant(base(), { id: 'f1-next', runId: 'run_f1' });
      await expectCode(store.renew(stale, { leaseMs: 60_000 }), 'LEASE_LOST');
      await expectCode(store.complete(stale, { next }), 'LEASE_LOST');
      await expectCode(store.complete(stale), 'LEASE_LOST');
      await expectCode(store.release(stale), 'LEASE_LOST');
      await expectCode(store.fail(stale, 'too late'), 'LEASE_LOST');
      expect(await store.load('f1-next')).toBeUndefined();
      expect((await store.load('f1'))?.status).toBe('claimed');
      const renewed = await store.renew(fresh!, { leaseMs: 60_000 });
      await store.complete(renewed, { next });
      expect((await store.load('f1'))?.status).toBe('completed');
      expect(await store.load('f1-next')).toMatchObject({ status: 'suspended', continuation: next });
    });

    it('completes a claim and saves the next continuation in one step', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'n1', runId: 'run_n' }));
      const claim = await store.claim('n1');
      const next = variant(base(), { id: 'n2', runId: 'run_n', metadata: { step: 2 } });
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      await store.complete(claim, { next, expiresAt });
      expect((await store.list({ runId: 'run_n' })).items.map((item) => [item.id, item.status])).toEqual([
        ['n1', 'completed'],
        ['n2', 'suspended'],
      ]);
      expect(await store.load('n2')).toMatchObject({ expiresAt, metadata: { step: 2 }, continuation: next });
      await expectCode(store.complete(claim, { next: variant(next, { id: 'n3' }) }), 'LEASE_LOST');
      expect(await store.load('n3')).toBeUndefined();
    });

    it('marks a claimed continuation failed with its error, lists it, and retries it only on purpose', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'e1' }));
      await store.save(variant(base(), { id: 'e2' }));
      const claim = await store.claim('e1');
      await store.fail(claim, 'TOOL_ERROR: the bank said no');
      expect(await store.load('e1')).toMatchObject({
        status: 'failed',
        error: 'TOOL_ERROR: the bank said no',
      });
      expect((await store.list({ status: 'failed' })).items).toMatchObject([
        { id: 'e1', status: 'failed', error: 'TOOL_ERROR: the bank said no' },
      ]);
      expect((await store.list({ status: 'suspended' })).items.map((item) => item.id)).toEqual(['e2']);
      await expectCode(store.claim('e1'), 'NOT_RESUMABLE');
      await expectCode(store.complete(claim), 'LEASE_LOST');
      await expectCode(store.retry('e2'), 'INVALID_OPERATION');
      await expectCode(store.retry('nope'), 'NOT_FOUND');
      await store.retry('e1');
      const loaded = (await store.load('e1'))!;
      expect(loaded.status).toBe('suspended');
      expect(loaded.error).toBeUndefined();
      await expectCode(store.retry('e1'), 'INVALID_OPERATION');
      const again = await store.claim('e1');
      await store.complete(again);
      expect((await store.load('e1'))?.status).toBe('completed');
    });
  });

  describe('resumeStored under a lease', () => {
    it('renews the claim through a tool slower than the lease: the tool runs once, the first resume succeeds', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      const [one, two] = await instances(opened, 2);
      const runs = toolRuns();
      let started!: () => void;
      const toolStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const agent = payrollAgent(runs, {
        during: async () => {
          started();
          await sleep(300);
        },
      });
      const first = await startPayroll(agent);
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const leaseMs = 100;
      const a = outcome(resumeStored(one!, agent, id, decisions, { leaseMs }));
      await toolStarted;
      // Twice the lease into the tool: without renewal the claim would have lapsed by now.
      await sleep(2 * leaseMs);
      const b = await outcome(resumeStored(two ?? one!, agent, id, decisions, { leaseMs }));
      const resumed = await a;
      expect(resumed.ok && resumed.value.status).toBe('suspended');
      expect(b.ok ? 'resumed twice' : b.code).toBe('CLAIM_CONFLICT');
      expect(runs).toEqual({ update_salary: 1, send_letter: 0 });
      expect((await opened.store.load(id))?.status).toBe('completed');
      expect(
        (await opened.store.list({ runId: first.continuation.runId, status: 'suspended' })).items,
      ).toHaveLength(1);
    });

    it('renews the claim of a streamed resume too: a second resume meanwhile is refused, the tool runs once', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      const [one, two] = await instances(opened, 2);
      const runs = toolRuns();
      let started!: () => void;
      const toolStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const agent = payrollAgent(runs, {
        during: async () => {
          started();
          await sleep(300);
        },
      });
      const first = await startPayroll(agent);
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const leaseMs = 100;
      const stream = await streamStored(one!, agent, id, decisions, { leaseMs });
      const events: string[] = [];
      const consumed = (async () => {
        for await (const event of stream) events.push(event.type);
      })();
      await toolStarted;
      await sleep(2 * leaseMs);
      const b = await outcome(resumeStored(two ?? one!, agent, id, decisions, { leaseMs }));
      await consumed;
      expect((await stream.result).status).toBe('suspended');
      expect(b.ok ? 'resumed twice' : b.code).toBe('CLAIM_CONFLICT');
      expect(events).toContain('tool-result');
      expect(runs).toEqual({ update_salary: 1, send_letter: 0 });
      expect((await opened.store.load(id))?.status).toBe('completed');
    });

    it('aborts a resume whose claim was taken over, and lets it write nothing', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      const [, other] = await instances(opened, 2);
      // The resuming worker's renewals stall (a long GC pause, a network partition) until released.
      let unstall!: () => void;
      const stalled = new Promise<void>((resolve) => {
        unstall = resolve;
      });
      const paused: ContinuationStore = Object.create(opened.store);
      paused.renew = async (claim, renewOptions) => {
        await stalled;
        return opened.store.renew(claim, renewOptions);
      };
      const runs = toolRuns();
      let toolSawAbort = false;
      let started!: (ctx: ToolContext) => void;
      const toolStarted = new Promise<ToolContext>((resolve) => {
        started = resolve;
      });
      const agent = payrollAgent(runs, {
        during: async (ctx) => {
          started(ctx);
          await eventually(async () => ctx.signal?.aborted === true, 'the run is aborted');
          toolSawAbort = true;
        },
      });
      const first = await startPayroll(agent);
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const slow = outcome(resumeStored(paused, agent, id, decisions, { leaseMs: 50, owner: 'slow' }));
      await toolStarted;
      let taken: Claim | undefined;
      await eventually(async () => {
        const result = await outcome((other ?? opened.store).claim(id, { owner: 'fast' }));
        if (result.ok) taken = result.value;
        return result.ok;
      }, 'the stalled lease lapses and another worker takes it');
      unstall();
      const result = await slow;
      expect(result.ok ? 'no error' : result.code).toBe('LEASE_LOST');
      expect(toolSawAbort).toBe(true);
      expect(runs.update_salary).toBe(1);
      // Nothing written by the claimant that lost: the record is the other worker's, nothing new saved.
      expect((await opened.store.load(id))?.status).toBe('claimed');
      expect(
        (await opened.store.list({ runId: first.continuation.runId })).items.map((item) => item.id),
      ).toEqual([id]);
      await opened.store.complete(taken!);
    });

    it('starts no tool in a claimant that thawed past its lease after another worker finished the run', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      const [, other] = await instances(opened, 2);
      // The frozen worker (a long GC pause between its claim and its tool) renews nothing until it thaws.
      let thaw!: () => void;
      const frozen = new Promise<void>((resolve) => {
        thaw = resolve;
      });
      const paused: ContinuationStore = Object.create(opened.store);
      paused.renew = async (claim, renewOptions) => {
        await frozen;
        return opened.store.renew(claim, renewOptions);
      };
      const runs = toolRuns();
      const signals: boolean[] = [];
      const agent = payrollAgent(runs, {
        letter: false,
        during: async (ctx) => {
          signals.push(ctx.signal?.aborted === true);
        },
      });
      let claimedFrozen!: () => void;
      const inClaim = new Promise<void>((resolve) => {
        claimedFrozen = resolve;
      });
      const stalled: typeof agent = Object.create(agent);
      stalled.checkDecisions = async (continuation, decisions) => {
        claimedFrozen();
        await frozen;
        await agent.checkDecisions(continuation, decisions);
      };
      const first = await startPayroll(agent);
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const slow = outcome(resumeStored(paused, stalled, id, decisions, { leaseMs: 50, owner: 'frozen' }));
      await inClaim;
      // Its lease lapses; another worker takes the record over and finishes the run.
      let finished: unknown;
      await eventually(async () => {
        const result = await outcome(
          resumeStored(other ?? opened.store, agent, id, decisions, { leaseMs: 5_000, owner: 'fast' }),
        );
        if (result.ok) finished = result.value;
        return result.ok;
      }, 'the frozen lease lapses and another worker resumes the record');
      expect((finished as { status: string }).status).toBe('completed');
      thaw();
      const result = await slow;
      expect(result.ok ? 'no error' : result.code).toBe('LEASE_LOST');
      expect(runs.update_salary, 'the approved tool ran once, in the worker that finished').toBe(1);
      expect(signals).toEqual([false]);
      // Nothing written by the thawed claimant: the record stays the other worker's, completed.
      const stored = await opened.store.load(id);
      expect(stored?.status).toBe('completed');
      expect(stored?.resumedBy).toBe('fast');
      expect(
        (await opened.store.list({ runId: first.continuation.runId })).items.map((item) => item.id),
      ).toEqual([id]);
    });

    it('aborts ctx.signal once the lease lapses while a tool runs, and starts no model call after it', async (context) => {
      const opened = await open();
      if (!opened.store.capabilities.leases) return context.skip();
      // Renewals stall for good (a partition): the lease lapses while the tool runs.
      const paused: ContinuationStore = Object.create(opened.store);
      paused.renew = () => new Promise<never>(() => {});
      const runs = toolRuns();
      const seen: string[] = [];
      const agent = payrollAgent(runs, {
        letter: false,
        during: async (ctx) => {
          await eventually(async () => ctx.signal?.aborted === true, 'the lapsed lease aborts the tool');
          seen.push('aborted');
        },
      });
      const first = await startPayroll(agent);
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const result = await outcome(
        resumeStored(paused, agent, id, decisions, {
          leaseMs: 60,
          owner: 'cut-off',
          beforeStart: (start) => {
            seen.push(start.type);
          },
        }),
      );
      expect(result.ok ? 'no error' : result.code).toBe('LEASE_LOST');
      expect(seen).toEqual(['tool', 'aborted']);
      expect(runs.update_salary).toBe(1);
      // Nothing written: the record waits for another worker (its lapsed claim shows as `claimed` or `suspended`).
      expect(['claimed', 'suspended']).toContain((await opened.store.load(id))?.status);
      expect(
        (await opened.store.list({ runId: first.continuation.runId })).items.map((item) => item.id),
      ).toEqual([id]);
    });
  });
}
