/**
 * The store contract's `saveIfAbsent` tests: a new id is saved as suspended, a taken one (in any
 * status) is left exactly as it was, and among concurrent calls for one id exactly one saves. A
 * store without the method skips them.
 */
import type { Continuation, ContinuationStore } from '@agent-continuations/core';
import { describe, expect, it, type TestContext } from 'vitest';
import { expectCode, variant } from './store-contract-fixtures';
import type { OpenedStore, StoreContractContext, StoreContractOptions } from './store-contract-harness';

type Open = (context?: StoreContractContext) => Promise<OpenedStore>;
type WithSaveIfAbsent = ContinuationStore & Required<Pick<ContinuationStore, 'saveIfAbsent'>>;

/** Register the `saveIfAbsent` tests. */
export function saveIfAbsentTests(open: Open, base: () => Continuation, options: StoreContractOptions): void {
  const racers = options.claimers ?? 50;
  const connections = options.connections ?? 5;

  /** The opened store, or the test skipped when the store has no `saveIfAbsent`. */
  const opened = async (context: TestContext): Promise<{ opened: OpenedStore; store: WithSaveIfAbsent }> => {
    const made = await open();
    if (!made.store.saveIfAbsent) context.skip('the store has no saveIfAbsent');
    return { opened: made, store: made.store as WithSaveIfAbsent };
  };

  describe('saveIfAbsent', () => {
    it('saves a new id as suspended and returns true; the record is claimable', async (context) => {
      const { store } = await opened(context);
      const saved = variant(base(), { id: 'c1', runId: 'r1', metadata: { tenant: 'acme' } });
      const expiresAt = new Date(Date.now() + 60_000);
      expect(await store.saveIfAbsent(saved, { expiresAt })).toBe(true);
      const loaded = (await store.load('c1'))!;
      expect(loaded).toMatchObject({ status: 'suspended', runId: 'r1', expiresAt: expiresAt.toISOString() });
      expect(loaded.continuation).toEqual(saved);
      expect((await store.list({ metadata: { tenant: 'acme' } })).items.map((item) => item.id)).toEqual([
        'c1',
      ]);
      expect((await store.list({ runId: 'r1' })).items.map((item) => item.id)).toEqual(['c1']);
      await store.complete(await store.claim('c1'));
    });

    it('leaves a suspended, claimed, completed, failed or cancelled record as it was and returns false', async (context) => {
      const { store } = await opened(context);
      const ids = ['suspended', 'claimed', 'completed', 'failed', 'cancelled'];
      for (const id of ids) await store.save(variant(base(), { id, metadata: { v: 1 } }));
      const held = await store.claim('claimed', { owner: 'ann' });
      await store.complete(await store.claim('completed', { owner: 'bob' }));
      await store.fail(await store.claim('failed'), 'boom');
      await store.complete(await store.claim('cancelled'), { cancelled: { reason: 'no' } });
      const before = await Promise.all(ids.map((id) => store.load(id)));
      for (const id of ids) {
        const later = new Date(Date.now() + 60_000);
        expect(
          await store.saveIfAbsent(variant(base(), { id, metadata: { v: 2 } }), { expiresAt: later }),
        ).toBe(false);
      }
      expect(await Promise.all(ids.map((id) => store.load(id)))).toEqual(before);
      expect(before.map((stored) => stored?.status)).toEqual(ids);
      // The claim still holds: its owner renews and completes it; nobody else takes it.
      await expectCode(store.claim('claimed'), 'CLAIM_CONFLICT');
      await store.complete(await store.renew(held));
      expect(await store.load('claimed')).toMatchObject({ status: 'completed', resumedBy: 'ann' });
      await expectCode(store.claim('completed'), 'CLAIM_CONFLICT');
    });

    it('saves again once the record was deleted', async (context) => {
      const { store } = await opened(context);
      await store.save(variant(base(), { id: 'c1' }));
      await store.delete('c1');
      expect(await store.saveIfAbsent(variant(base(), { id: 'c1', metadata: { v: 2 } }))).toBe(true);
      expect((await store.load('c1'))?.continuation.metadata).toEqual({ v: 2 });
    });

    it(`has exactly one true among ${racers} concurrent calls for one id`, async (context) => {
      const { opened: made, store } = await opened(context);
      const stores = store.capabilities.multiProcess
        ? [store, ...(await Promise.all(Array.from({ length: connections - 1 }, () => made.connect())))]
        : [store];
      const results = await Promise.all(
        Array.from({ length: racers }, (_, i) =>
          (stores[i % stores.length] as WithSaveIfAbsent).saveIfAbsent(
            variant(base(), { id: 'c1', metadata: { racer: i } }),
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await store.load('c1'))?.continuation.metadata).toEqual({ racer: winner });
      expect((await store.list()).items.map((item) => item.id)).toEqual(['c1']);
    });

    it('refuses a bad expiresAt with INVALID_OPERATION and writes nothing', async (context) => {
      const { store } = await opened(context);
      await expectCode(
        store.saveIfAbsent(variant(base(), { id: 'c1' }), { expiresAt: 'next tuesday' }),
        'INVALID_OPERATION',
      );
      expect(await store.load('c1')).toBeUndefined();
    });
  });
}
