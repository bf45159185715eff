/**
 * The store contract's claim tests: one winner among concurrent claimers, leases, expiry of pending
 * approvals, and `resumeStored` running each tool once.
 */
import { type Continuation, type ContinuationStore, resumeStored } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { suspended } from './results';
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

/** Register the claim, lease, expiry and resumeStored tests. */
export function claimTests(open: Open, base: () => Continuation, options: StoreContractOptions): void {
  const claimers = options.claimers ?? 50;
  const connections = options.connections ?? 5;

  /** `store` plus, when the store is shared between processes, more instances over the same data. */
  const instances = async (opened: OpenedStore, count: number): Promise<ContinuationStore[]> => {
    if (!opened.store.capabilities.multiProcess) return [opened.store];
    const more = await Promise.all(Array.from({ length: count - 1 }, () => opened.connect()));
    return [opened.store, ...more];
  };

  describe('claim', () => {
    it(`has exactly one winner among ${claimers} concurrent claimers`, async () => {
      const opened = await open();
      const stores = await instances(opened, connections);
      const ids = ['x1', 'x2', 'x3'];
      for (const id of ids) await opened.store.save(variant(base(), { id }));
      const results = await Promise.all(
        ids.flatMap((id) =>
          Array.from({ length: claimers }, (_, i) =>
            outcome(stores[i % stores.length]!.claim(id, { owner: `worker-${i}` })).then((result) => ({
              id,
              result,
            })),
          ),
        ),
      );
      for (const id of ids) {
        const mine = results.filter((entry) => entry.id === id).map((entry) => entry.result);
        const winners = mine.filter((result) => result.ok);
        expect(winners, `winners for ${id}`).toHaveLength(1);
        expect(mine.filter((result) => !result.ok).map((result) => !result.ok && result.code)).toEqual(
          Array(claimers - 1).fill('CLAIM_CONFLICT'),
        );
        const claim = winners[0]!.ok ? winners[0]!.value : undefined;
        expect(claim).toMatchObject({ id, owner: expect.stringMatching(/^worker-/) });
        expect(Date.parse(claim!.leaseUntil)).toBeGreaterThan(Date.now());
        expect((await opened.store.load(id))?.status).toBe('claimed');
      }
    });

    it('refuses a claimed continuation, and a completed one for good', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'c1' }));
      const claim = await store.claim('c1', { owner: 'w1' });
      await expectCode(store.claim('c1', { owner: 'w2' }), 'CLAIM_CONFLICT');
      await store.complete(claim);
      expect((await store.load('c1'))?.status).toBe('completed');
      await expectCode(store.claim('c1', { owner: 'w2' }), 'CLAIM_CONFLICT');
      await expectCode(store.complete(claim), 'LEASE_LOST');
      await expectCode(store.claim('nope'), 'NOT_FOUND');
    });

    it('records who resumed a completed continuation: the owner of the claim that completed it', async () => {
      const opened = await open();
      const [store, other] = await instances(opened, 2);
      await store!.save(variant(base(), { id: 'c1', runId: 'r1' }));
      await store!.save(variant(base(), { id: 'c2', runId: 'r2' }));
      await store!.save(variant(base(), { id: 'c3', runId: 'r3' }));
      const claim = await store!.claim('c1', { owner: 'ann' });
      expect((await store!.load('c1'))?.resumedBy).toBeUndefined();
      await store!.complete(claim);
      // Another process sees it too, in load and in list.
      expect(await (other ?? store!).load('c1')).toMatchObject({ status: 'completed', resumedBy: 'ann' });
      expect((await (other ?? store!).list({ runId: 'r1' })).items).toMatchObject([
        { id: 'c1', status: 'completed', resumedBy: 'ann' },
      ]);
      // A released claim, a failed one and a held one name nobody.
      await store!.release(await store!.claim('c2', { owner: 'bob' }));
      expect((await store!.load('c2'))?.resumedBy).toBeUndefined();
      await store!.fail(await store!.claim('c2', { owner: 'bob' }), 'boom');
      expect((await store!.load('c2'))?.resumedBy).toBeUndefined();
      await store!.claim('c3', { owner: 'cat' });
      expect((await store!.load('c3'))?.resumedBy).toBeUndefined();
      expect('resumedBy' in (await store!.list({ runId: 'r3' })).items[0]!).toBe(false);
    });

    it('names the resumer of the completed record only, not the next continuation saved with it', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'c1', runId: 'r1' }));
      await store.complete(await store.claim('c1', { owner: 'ann' }), {
        next: variant(base(), { id: 'c2', runId: 'r1' }),
      });
      expect((await store.list({ runId: 'r1' })).items.map((item) => [item.id, item.resumedBy])).toEqual([
        ['c1', 'ann'],
        ['c2', undefined],
      ]);
      // The next continuation under the same id replaces the record: suspended again, nobody named.
      await store.complete(await store.claim('c2', { owner: 'bob' }), {
        next: variant(base(), { id: 'c2', runId: 'r1' }),
      });
      expect(await store.load('c2')).toMatchObject({ status: 'suspended' });
      expect((await store.load('c2'))?.resumedBy).toBeUndefined();
    });

    it('ends a run as cancelled through its claim: listed and filtered as such, with who and why, never claimed again', async () => {
      const opened = await open();
      const [store, other] = await instances(opened, 2);
      await store!.save(variant(base(), { id: 'c1', runId: 'r1' }));
      await store!.save(variant(base(), { id: 'c2', runId: 'r2' }));
      const claim = await store!.claim('c1', { owner: 'ann' });
      await expectCode(store!.complete(claim, { next: base(), cancelled: {} }), 'INVALID_OPERATION');
      await store!.complete(claim, { cancelled: { reason: 'Sent twice' } });
      const seen = other ?? store!;
      expect(await seen.load('c1')).toMatchObject({
        status: 'cancelled',
        resumedBy: 'ann',
        reason: 'Sent twice',
      });
      expect((await seen.list({ status: 'cancelled' })).items.map((item) => item.id)).toEqual(['c1']);
      expect((await seen.list({ status: 'completed' })).items).toEqual([]);
      expect((await seen.list({ status: 'suspended' })).items.map((item) => item.id)).toEqual(['c2']);
      await expect(seen.claim('c1', { owner: 'bob' })).rejects.toMatchObject({
        code: 'CLAIM_CONFLICT',
        message: expect.stringContaining('cancelled'),
      });
      await expectCode(store!.complete(claim), 'LEASE_LOST');
      // Without a reason, none is reported.
      await store!.complete(await store!.claim('c2', { owner: 'bob' }), { cancelled: {} });
      const second = await seen.load('c2');
      expect(second).toMatchObject({ status: 'cancelled', resumedBy: 'bob' });
      expect(second?.reason).toBeUndefined();
      // Saved again under its id (a new suspension), the record is suspended, not cancelled.
      await store!.save(variant(base(), { id: 'c2', runId: 'r2' }));
      expect((await seen.load('c2'))?.status).toBe('suspended');
    });

    it('makes a released claim claimable again, and refuses a stale release without effect', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'c1' }));
      const first = await store.claim('c1', { owner: 'w1' });
      await store.release(first);
      expect((await store.load('c1'))?.status).toBe('suspended');
      const second = await store.claim('c1', { owner: 'w2' });
      expect(second.token).not.toBe(first.token);
      await expectCode(store.release(first), 'LEASE_LOST');
      await expectCode(store.claim('c1', { owner: 'w3' }), 'CLAIM_CONFLICT');
      await expectCode(store.complete(first), 'LEASE_LOST');
      await store.complete(second);
      expect((await store.load('c1'))?.status).toBe('completed');
    });

    it('lets another worker take over after the lease expires; the old holder can no longer complete', async (context) => {
      const { store } = await open();
      if (!store.capabilities.leases) return context.skip();
      await store.save(variant(base(), { id: 'c1' }));
      const stale = await store.claim('c1', { owner: 'w1', leaseMs: 50 });
      let fresh: Awaited<ReturnType<ContinuationStore['claim']>> | undefined;
      await eventually(async () => {
        const result = await outcome(store.claim('c1', { owner: 'w2' }));
        if (result.ok) fresh = result.value;
        else expect(result.code).toBe('CLAIM_CONFLICT');
        return result.ok;
      }, 'the 50 ms lease expires');
      expect(fresh!.owner).toBe('w2');
      await expectCode(store.complete(stale), 'LEASE_LOST');
      await store.complete(fresh!);
      await expectCode(store.claim('c1'), 'CLAIM_CONFLICT');
    });
  });

  describe('expiry of pending actions', () => {
    it('reports a past expiresAt as expired, and refuses to claim or resume it', async (context) => {
      const { store } = await open();
      if (!store.capabilities.expiry) return context.skip();
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent);
      const expiresAt = new Date(Date.now() - 60_000);
      await store.save(first.continuation, { expiresAt });
      const loaded = (await store.load(first.continuation.id))!;
      expect(loaded.status).toBe('expired');
      expect(loaded.expiresAt).toBe(expiresAt.toISOString());
      expect((await store.list({ status: 'expired' })).items.map((item) => item.id)).toEqual([
        first.continuation.id,
      ]);
      await expectCode(store.claim(first.continuation.id), 'EXPIRED');
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      await expectCode(resumeStored(store, agent, first.continuation.id, decisions), 'EXPIRED');
      expect(runs.update_salary).toBe(0);
    });

    it('keeps a future expiresAt claimable until it passes, then reports it expired', async (context) => {
      const { store } = await open();
      if (!store.capabilities.expiry) return context.skip();
      // Two seconds: room for the save, load and claim below on a busy machine before it expires.
      const expiresAt = new Date(Date.now() + 2_000).toISOString();
      await store.save(variant(base(), { id: 'soon' }), { expiresAt });
      await store.save(variant(base(), { id: 'later' }), { expiresAt: new Date(Date.now() + 3_600_000) });
      expect(await store.load('soon')).toMatchObject({ status: 'suspended', expiresAt });
      await store.release(await store.claim('soon'));
      await eventually(async () => (await store.load('soon'))?.status === 'expired', 'expiresAt passes');
      await expectCode(store.claim('soon'), 'EXPIRED');
      expect((await store.load('later'))?.status).toBe('suspended');
    });
  });

  describe('resumeStored', () => {
    it('runs the tool once when the same continuation is resumed twice at the same time', async () => {
      const opened = await open();
      const [one, two] = await instances(opened, 2);
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent, { ticket: 'T-1' });
      const id = first.continuation.id;
      await opened.store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const, by: 'boss' } };
      const results = await Promise.all([
        outcome(resumeStored(one!, agent, id, decisions)),
        outcome(resumeStored(two ?? one!, agent, id, decisions)),
      ]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.code)).toEqual([
        'CLAIM_CONFLICT',
      ]);
      await expectCode(resumeStored(opened.store, agent, id, decisions), 'CLAIM_CONFLICT');
      expect(runs).toEqual({ update_salary: 1, send_letter: 0 });
      expect((await opened.store.load(id))?.status).toBe('completed');
    });

    it('records the claim owner given to resumeStored as who resumed the run', async () => {
      const { store } = await open();
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent, { ticket: 'T-3' });
      const id = first.continuation.id;
      await store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const, by: 'boss' } };
      const second = suspended(await resumeStored(store, agent, id, decisions, { owner: 'boss' }));
      expect(await store.load(id)).toMatchObject({ status: 'completed', resumedBy: 'boss' });
      expect((await store.load(second.continuation.id))?.resumedBy).toBeUndefined();
    });

    it('saves the next continuation when the run suspends again, and completes the run from it', async () => {
      const { store } = await open();
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent, { ticket: 'T-2' });
      await store.save(first.continuation);
      const approve = (actionId: string) => ({ [actionId]: { type: 'approve' as const, by: 'boss' } });
      const second = suspended(
        await resumeStored(store, agent, first.continuation.id, approve(first.actions[0]!.id)),
      );
      const next = (await store.load(second.continuation.id))!;
      expect(next.status).toBe('suspended');
      expect(next.runId).toBe(first.continuation.runId);
      expect(next.metadata).toEqual({ ticket: 'T-2' });
      expect(next.continuation).toEqual(second.continuation);
      const last = await resumeStored(store, agent, second.continuation.id, approve(second.actions[0]!.id));
      expect(last).toMatchObject({ status: 'completed', output: 'Salary updated and letter sent.' });
      expect(runs).toEqual({ update_salary: 1, send_letter: 1 });
      expect(
        (await store.list({ runId: first.continuation.runId })).items.map((item) => item.status),
      ).toEqual(['completed', 'completed']);
    });

    it('runs nothing and gives the claim back when a decision names an unknown action', async () => {
      const { store } = await open();
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent);
      await store.save(first.continuation);
      const id = first.continuation.id;
      await expectCode(resumeStored(store, agent, id, { nope: { type: 'approve' } }), 'UNKNOWN_ACTION');
      expect(runs.update_salary).toBe(0);
      expect((await store.load(id))?.status).toBe('suspended');
      const result = await resumeStored(store, agent, id, { [first.actions[0]!.id]: { type: 'approve' } });
      expect(result.status).toBe('suspended');
      expect(runs.update_salary).toBe(1);
    });
  });
}
