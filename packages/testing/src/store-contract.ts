/**
 * The store contract suite (docs/design.md section 7): every `ContinuationStore` passes the same tests. A
 * store's test file is a few lines that call {@link runStoreContract} with a factory; the suite
 * reads the store's `capabilities` to decide what to test.
 */
import {
  type Continuation,
  type ContinuationStore,
  type ListFilter,
  parseContinuation,
  type StoredSummary,
  serializeContinuation,
} from '@agent-continuations/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimTests } from './store-contract-claims';
import { encryptionTests } from './store-contract-encryption';
import { expectCode, nestedContinuation, variant } from './store-contract-fixtures';
import {
  type OpenedStore,
  openStore,
  type StoreContractContext,
  type StoreContractFactory,
  type StoreContractOptions,
} from './store-contract-harness';
import { leaseTests } from './store-contract-leases';
import { saveIfAbsentTests } from './store-contract-save-if-absent';

/**
 * Register the store contract tests for a store.
 *
 * @example
 * ```ts
 * // packages/store-foo/test/foo-store.test.ts
 * import { runStoreContract } from '@agent-continuations/testing';
 * import { createFooStore } from '../src';
 *
 * runStoreContract('foo', ({ encryption }) => {
 *   const name = `test_${crypto.randomUUID()}`;
 *   const store = createFooStore({ name, encryption });
 *   return {
 *     store,
 *     connect: (context) => createFooStore({ name, encryption: context.encryption }),
 *     cleanup: () => store.destroy(),
 *   };
 * }, { encryption: true });
 * ```
 */
export function runStoreContract(
  name: string,
  factory: StoreContractFactory,
  options: StoreContractOptions = {},
): void {
  describe(`store contract: ${name}`, () => {
    const opened: OpenedStore[] = [];
    const open = async (context: StoreContractContext = {}) => {
      const store = await openStore(factory, context);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    let base: Continuation;
    beforeAll(async () => {
      base = await nestedContinuation();
    });

    basicTests(open, () => base);
    listTests(open, () => base);
    claimTests(open, () => base, options);
    leaseTests(open, () => base, options);
    saveIfAbsentTests(open, () => base, options);
    if (options.encryption) encryptionTests(open, () => base);
  });
}

type Open = (context?: StoreContractContext) => Promise<OpenedStore>;

function basicTests(open: Open, base: () => Continuation): void {
  describe('save, load, delete', () => {
    it('loads what was saved, deep-equal, byte-identical when serialized, and valid', async () => {
      const { store } = await open();
      const saved = variant(base(), {
        id: 'c1',
        runId: 'run-1',
        metadata: { zeta: 1, alpha: { b: [1, 'two', null], a: true }, tenant: 'acme' },
      });
      await store.save(saved);
      const loaded = await store.load('c1');
      expect(loaded).toBeDefined();
      expect(loaded!.continuation).toEqual(saved);
      expect(serializeContinuation(loaded!.continuation)).toBe(serializeContinuation(saved));
      expect(parseContinuation(JSON.stringify(loaded!.continuation))).toEqual(saved);
      expect(summaryOf(loaded!)).toEqual({
        id: 'c1',
        runId: 'run-1',
        agentName: 'hr',
        status: 'suspended',
        metadata: saved.metadata,
        createdAt: saved.createdAt,
      });
    });

    it('returns undefined for an unknown id', async () => {
      const { store } = await open();
      expect(await store.load('missing')).toBeUndefined();
    });

    it('keeps its own copy: changing the saved object afterwards changes nothing stored', async () => {
      const { store } = await open();
      const saved = variant(base(), { id: 'c1', metadata: { tenant: 'acme' } });
      const original = structuredClone(saved);
      await store.save(saved);
      saved.metadata.tenant = 'changed';
      saved.messages.push({ role: 'user', content: 'changed' });
      expect((await store.load('c1'))!.continuation).toEqual(original);
      expect((await store.list()).items[0]!.metadata).toEqual({ tenant: 'acme' });
      const loaded = (await store.load('c1'))!;
      loaded.continuation.metadata.tenant = 'changed too';
      expect((await store.load('c1'))!.continuation).toEqual(original);
    });

    it('replaces a continuation saved again under the same id, as suspended, keeping one record', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'c1', metadata: { v: 1 } }));
      const claim = await store.claim('c1');
      await store.complete(claim);
      const second = variant(base(), { id: 'c1', metadata: { v: 2 } });
      await store.save(second);
      const loaded = (await store.load('c1'))!;
      expect(loaded.status).toBe('suspended');
      expect(loaded.continuation).toEqual(second);
      expect((await store.list()).items.map((item) => [item.id, item.metadata])).toEqual([['c1', { v: 2 }]]);
      await store.claim('c1');
    });

    it('deletes: true once, then false; a deleted continuation is gone everywhere', async () => {
      const { store } = await open();
      await store.save(variant(base(), { id: 'c1' }));
      await store.save(variant(base(), { id: 'c2' }));
      expect(await store.delete('c1')).toBe(true);
      expect(await store.delete('c1')).toBe(false);
      expect(await store.load('c1')).toBeUndefined();
      expect((await store.list()).items.map((item) => item.id)).toEqual(['c2']);
      await expectCode(store.claim('c1'), 'NOT_FOUND');
      expect((await store.load('c2'))?.status).toBe('suspended');
    });
  });
}

function listTests(open: Open, base: () => Continuation): void {
  describe('list', () => {
    /** Seven continuations, saved oldest first, with distinct index fields. */
    const seed = async (store: ContinuationStore) => {
      const rows: Array<Parameters<typeof variant>[1]> = [
        { id: 'a', agentName: 'payroll', runId: 'r1', metadata: { tenant: 'acme', priority: 1 } },
        { id: 'b', agentName: 'payroll', runId: 'r1', metadata: { tenant: 'acme', vip: true } },
        { id: 'c', agentName: 'hr', runId: 'r2', metadata: { tenant: 'globex', vip: 1 } },
        { id: 'd', agentName: 'hr', runId: 'r3', metadata: { tenant: 'acme', labels: { a: 1, b: [2] } } },
        { id: 'e', agentName: 'payroll', runId: 'r4', metadata: { 'team.name': 'ops "blue"' } },
        { id: 'f', agentName: 'hr', runId: 'r5', metadata: { tenant: null } },
        { id: 'g', agentName: 'payroll', runId: 'r6', metadata: { tenant: 'acme', priority: 1 } },
      ];
      for (const row of rows) await store.save(variant(base(), row));
    };
    const ids = async (store: ContinuationStore, filter: ListFilter = {}) =>
      (await store.list(filter)).items.map((item) => item.id);

    it('lists every continuation oldest first, with summaries and no bodies', async () => {
      const { store } = await open();
      await seed(store);
      const page = await store.list();
      expect(page.items.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(page.cursor).toBeUndefined();
      expect(page.items[0]).toEqual({
        id: 'a',
        runId: 'r1',
        agentName: 'payroll',
        status: 'suspended',
        metadata: { tenant: 'acme', priority: 1 },
        createdAt: base().createdAt,
      });
      expect('continuation' in page.items[0]!).toBe(false);
    });

    it('filters by agent name, run id and metadata (compared as JSON values)', async () => {
      const { store } = await open();
      await seed(store);
      expect(await ids(store, { agentName: 'hr' })).toEqual(['c', 'd', 'f']);
      expect(await ids(store, { runId: 'r1' })).toEqual(['a', 'b']);
      expect(await ids(store, { metadata: { tenant: 'acme' } })).toEqual(['a', 'b', 'd', 'g']);
      expect(await ids(store, { metadata: { tenant: 'acme', priority: 1 } })).toEqual(['a', 'g']);
      expect(await ids(store, { metadata: { vip: true } })).toEqual(['b']);
      expect(await ids(store, { metadata: { vip: 1 } })).toEqual(['c']);
      expect(await ids(store, { metadata: { labels: { b: [2], a: 1 } } })).toEqual(['d']);
      expect(await ids(store, { metadata: { labels: { a: 1 } } })).toEqual([]);
      expect(await ids(store, { metadata: { 'team.name': 'ops "blue"' } })).toEqual(['e']);
      expect(await ids(store, { metadata: { tenant: null } })).toEqual(['f']);
      expect(await ids(store, { metadata: { tenant: 'nobody' } })).toEqual([]);
      expect(await ids(store, { agentName: 'payroll', metadata: { tenant: 'acme' }, runId: 'r6' })).toEqual([
        'g',
      ]);
    });

    it('filters by status: suspended, claimed, completed, expired, or several', async () => {
      const { store } = await open();
      await seed(store);
      await store.claim('b');
      await store.complete(await store.claim('c'));
      await store.save(variant(base(), { id: 'h', runId: 'r7' }), { expiresAt: new Date(Date.now() - 1000) });
      expect(await ids(store, { status: 'claimed' })).toEqual(['b']);
      expect(await ids(store, { status: 'completed' })).toEqual(['c']);
      expect(await ids(store, { status: 'expired' })).toEqual(['h']);
      expect(await ids(store, { status: 'suspended' })).toEqual(['a', 'd', 'e', 'f', 'g']);
      expect(await ids(store, { status: ['claimed', 'completed'] })).toEqual(['b', 'c']);
      expect(await ids(store, { status: ['suspended'], agentName: 'hr' })).toEqual(['d', 'f']);
      const statuses = Object.fromEntries((await store.list()).items.map((item) => [item.id, item.status]));
      expect(statuses).toMatchObject({ b: 'claimed', c: 'completed', h: 'expired', a: 'suspended' });
    });

    it('pages with a cursor, also when filters skip records between pages', async () => {
      const { store } = await open();
      await seed(store);
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list({ limit: 3, ...(cursor ? { cursor } : {}) });
        pages.push(page.items.map((item) => item.id));
        cursor = page.cursor;
      } while (cursor);
      expect(pages).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);

      const first = await store.list({ metadata: { tenant: 'acme' }, limit: 2 });
      expect(first.items.map((item) => item.id)).toEqual(['a', 'b']);
      expect(first.cursor).toBeDefined();
      const second = await store.list({ metadata: { tenant: 'acme' }, limit: 2, cursor: first.cursor! });
      expect(second.items.map((item) => item.id)).toEqual(['d', 'g']);
      expect(second.cursor).toBeUndefined();

      // A page that ends exactly at the last match says there is no more.
      const exact = await store.list({ limit: 7 });
      expect(exact.items).toHaveLength(7);
      expect(exact.cursor).toBeUndefined();
    });

    it('lists newest first with order desc, with the same filters', async () => {
      const { store } = await open();
      await seed(store);
      expect(await ids(store, { order: 'desc' })).toEqual(['g', 'f', 'e', 'd', 'c', 'b', 'a']);
      expect(await ids(store, { order: 'asc' })).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(await ids(store, { order: 'desc', agentName: 'hr' })).toEqual(['f', 'd', 'c']);
      expect(await ids(store, { order: 'desc', runId: 'r1' })).toEqual(['b', 'a']);
      expect(await ids(store, { order: 'desc', metadata: { tenant: 'acme' } })).toEqual(['g', 'd', 'b', 'a']);
      await store.claim('d');
      expect(await ids(store, { order: 'desc', status: 'suspended' })).toEqual([
        'g',
        'f',
        'e',
        'c',
        'b',
        'a',
      ]);
      // Saving a record again keeps its place: the order is the order of first saves.
      await store.save(variant(base(), { id: 'b', agentName: 'payroll', runId: 'r1', metadata: { v: 2 } }));
      expect(await ids(store, { order: 'desc', runId: 'r1' })).toEqual(['b', 'a']);
    });

    it('pages newest first with a cursor, also when filters skip records between pages', async () => {
      const { store } = await open();
      await seed(store);
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list({ order: 'desc', limit: 3, ...(cursor ? { cursor } : {}) });
        pages.push(page.items.map((item) => item.id));
        cursor = page.cursor;
      } while (cursor);
      expect(pages).toEqual([['g', 'f', 'e'], ['d', 'c', 'b'], ['a']]);

      const first = await store.list({ order: 'desc', metadata: { tenant: 'acme' }, limit: 2 });
      expect(first.items.map((item) => item.id)).toEqual(['g', 'd']);
      const second = await store.list({
        order: 'desc',
        metadata: { tenant: 'acme' },
        limit: 2,
        cursor: first.cursor!,
      });
      expect(second.items.map((item) => item.id)).toEqual(['b', 'a']);
      expect(second.cursor).toBeUndefined();

      const exact = await store.list({ order: 'desc', limit: 7 });
      expect(exact.items).toHaveLength(7);
      expect(exact.cursor).toBeUndefined();
    });

    it('keeps paging stable while records are saved between pages, in either order', async () => {
      const { store } = await open();
      await seed(store);
      const newest = await store.list({ order: 'desc', limit: 3 });
      const oldest = await store.list({ limit: 3 });
      await store.save(variant(base(), { id: 'h', runId: 'r8' }));
      await store.save(variant(base(), { id: 'i', runId: 'r9' }));
      const rest = async (order: 'asc' | 'desc', cursor: string | undefined) => {
        const seen: string[] = [];
        while (cursor) {
          const page = await store.list({ order, limit: 3, cursor });
          seen.push(...page.items.map((item) => item.id));
          cursor = page.cursor;
        }
        return seen;
      };
      // Newest first: records saved after the first page never show up in the later pages.
      expect(await rest('desc', newest.cursor)).toEqual(['d', 'c', 'b', 'a']);
      // Oldest first: they join the end.
      expect(await rest('asc', oldest.cursor)).toEqual(['d', 'e', 'f', 'g', 'h', 'i']);
      expect((await store.list({ order: 'desc', limit: 2 })).items.map((item) => item.id)).toEqual([
        'i',
        'h',
      ]);
    });

    it('pages through many records with a filter that skips most of them', async () => {
      const { store } = await open();
      for (let i = 0; i < 230; i++) {
        await store.save(variant(base(), { id: `m${i}`, metadata: { shard: i % 7 === 3 ? 'x' : 'y' } }));
      }
      const expected = Array.from({ length: 230 }, (_, i) => i)
        .filter((i) => i % 7 === 3)
        .map((i) => `m${i}`);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list({ metadata: { shard: 'x' }, limit: 4, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(4);
        seen.push(...page.items.map((item) => item.id));
        cursor = page.cursor;
      } while (cursor);
      expect(seen).toEqual(expected);

      const backwards: string[] = [];
      cursor = undefined;
      do {
        const page = await store.list({
          metadata: { shard: 'x' },
          order: 'desc',
          limit: 4,
          ...(cursor ? { cursor } : {}),
        });
        expect(page.items.length).toBeLessThanOrEqual(4);
        backwards.push(...page.items.map((item) => item.id));
        cursor = page.cursor;
      } while (cursor);
      expect(backwards).toEqual([...expected].reverse());
    });

    it('refuses a bad limit or cursor, and a bad expiresAt, with INVALID_OPERATION', async () => {
      const { store } = await open();
      await expectCode(store.list({ limit: 0 }), 'INVALID_OPERATION');
      await expectCode(store.list({ limit: 1.5 }), 'INVALID_OPERATION');
      await expectCode(store.list({ cursor: 'not a cursor' }), 'INVALID_OPERATION');
      await expectCode(store.list({ cursor: 'not a cursor', order: 'desc' }), 'INVALID_OPERATION');
      await expectCode(store.list({ order: 'newest' as 'desc' }), 'INVALID_OPERATION');
      await expectCode(
        store.save(variant(base(), { id: 'c1' }), { expiresAt: 'next tuesday' }),
        'INVALID_OPERATION',
      );
      expect(await store.load('c1')).toBeUndefined();
    });

    it('returns an empty page for an empty store', async () => {
      const { store } = await open();
      expect(await store.list()).toEqual({ items: [] });
      expect(await store.list({ order: 'desc' })).toEqual({ items: [] });
    });
  });
}

function summaryOf(stored: StoredSummary & { continuation?: unknown }): StoredSummary {
  const { continuation: _, ...summary } = stored;
  return summary;
}
