/**
 * The store contract's encryption-at-rest tests: the raw record hides the conversation, a wrong
 * key is a typed error, and key rotation keeps old records readable.
 */
import { type Continuation, createEncryption, resumeStored } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import {
  expectCode,
  payrollAgent,
  SECRET_TEXT,
  startPayroll,
  toolRuns,
  variant,
} from './store-contract-fixtures';
import type { OpenedStore, StoreContractContext } from './store-contract-harness';

type Open = (context?: StoreContractContext) => Promise<OpenedStore>;

const key = (fill: number) => new Uint8Array(32).fill(fill);
const oldKeys = createEncryption({ keys: { k1: key(1) }, currentKeyId: 'k1' });
const rotated = createEncryption({ keys: { k1: key(1), k2: key(2) }, currentKeyId: 'k2' });
const onlyNew = createEncryption({ keys: { k2: key(2) }, currentKeyId: 'k2' });
const wrongKey = createEncryption({ keys: { k1: key(9) }, currentKeyId: 'k1' });

/** Register the encryption tests; the factory must honour `encryption` and give `raw` and `connect`. */
export function encryptionTests(open: Open, base: () => Continuation): void {
  const rawOf = async (opened: OpenedStore, id: string) => {
    if (!opened.harness.raw) throw new Error('The encryption tests need `raw` from the factory.');
    const raw = await opened.harness.raw(id);
    if (raw === undefined) throw new Error(`raw(${id}) found no record`);
    return raw;
  };

  describe('encryption at rest', () => {
    it('stores no conversation text in clear, and loads it back intact', async () => {
      const opened = await open({ encryption: oldKeys });
      const saved = variant(base(), { id: 'c1', metadata: { tenant: 'acme' } });
      expect(JSON.stringify(saved)).toContain(SECRET_TEXT);
      await opened.store.save(saved);
      const raw = await rawOf(opened, 'c1');
      expect(raw).not.toContain(SECRET_TEXT);
      expect(raw).not.toContain('ünïcödé');
      expect(raw).not.toContain('raise');
      expect(raw).toContain('enc:v1:k1:');
      expect((await opened.store.load('c1'))!.continuation).toEqual(saved);
      // Index fields stay in clear, so listing and filtering need no key.
      expect(
        (await opened.store.list({ metadata: { tenant: 'acme' } })).items.map((item) => item.id),
      ).toEqual(['c1']);
    });

    it('encrypts what saveIfAbsent saves, as save does', async (context) => {
      const opened = await open({ encryption: oldKeys });
      if (!opened.store.saveIfAbsent) context.skip('the store has no saveIfAbsent');
      const saved = variant(base(), { id: 'c1' });
      expect(await opened.store.saveIfAbsent!(saved)).toBe(true);
      const raw = await rawOf(opened, 'c1');
      expect(raw).not.toContain(SECRET_TEXT);
      expect(raw).toContain('enc:v1:k1:');
      expect((await opened.store.load('c1'))!.continuation).toEqual(saved);
    });

    it('refuses a wrong key, a missing key and a plain reader with DECRYPT_FAILED; listing still works', async () => {
      const opened = await open({ encryption: oldKeys });
      await opened.store.save(variant(base(), { id: 'c1' }));
      const wrong = await opened.connect({ encryption: wrongKey });
      await expectCode(wrong.load('c1'), 'DECRYPT_FAILED');
      expect((await wrong.list()).items.map((item) => item.id)).toEqual(['c1']);
      await expectCode((await opened.connect({ encryption: onlyNew })).load('c1'), 'DECRYPT_FAILED');
      await expectCode((await opened.connect({})).load('c1'), 'DECRYPT_FAILED');
    });

    it('after rotation reads old records with the old key and writes new ones with the new key', async () => {
      const opened = await open({ encryption: oldKeys });
      const before = variant(base(), { id: 'before' });
      await opened.store.save(before);
      const afterRotation = await opened.connect({ encryption: rotated });
      const after = variant(base(), { id: 'after' });
      await afterRotation.save(after);
      expect(await rawOf(opened, 'after')).toContain('enc:v1:k2:');
      expect((await afterRotation.load('before'))!.continuation).toEqual(before);
      expect((await afterRotation.load('after'))!.continuation).toEqual(after);
      // A store without the old key reads new records only: so they were written with the new key.
      const retired = await opened.connect({ encryption: onlyNew });
      expect((await retired.load('after'))!.continuation).toEqual(after);
      await expectCode(retired.load('before'), 'DECRYPT_FAILED');
      await expectCode(opened.store.load('after'), 'DECRYPT_FAILED');
    });

    it('resumes through an encrypting store and encrypts the next continuation too', async () => {
      const opened = await open({ encryption: oldKeys });
      const runs = toolRuns();
      const agent = payrollAgent(runs);
      const first = await startPayroll(agent);
      await opened.store.save(first.continuation);
      const next = await resumeStored(opened.store, agent, first.continuation.id, {
        [first.actions[0]!.id]: { type: 'approve' },
      });
      expect(next.status).toBe('suspended');
      expect(runs.update_salary).toBe(1);
      if (next.status !== 'suspended') return;
      expect(await rawOf(opened, next.continuation.id)).not.toContain(SECRET_TEXT);
      expect((await opened.store.load(next.continuation.id))!.continuation).toEqual(next.continuation);
    });
  });
}
