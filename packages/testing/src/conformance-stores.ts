/**
 * Conformance scenarios. Stores: claims make a double resume run nothing twice.
 */
import { createMemoryStore, isContinuationError, resumeStored } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { type Counts, reportResults, transferTool } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { rejects, type Skip, suspended } from './conformance-helpers';

export function storeScenarios(harness: ConformanceHarness, _skip: Skip): void {
  describe('stores', () => {
    it('the same continuation resumed twice through a claim runs nothing twice', async () => {
      const counts: Counts = {};
      const spec = {
        name: 'accounts',
        instructions: 'You help with bank accounts.',
        script: [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] }, reportResults],
        tools: [transferTool(counts)],
      };
      const store = createMemoryStore();
      const first = suspended(await (await harness.createAgent(spec)).run('Send 50 to bob'));
      await store.save(first.continuation);
      const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
      const [a, b] = await Promise.allSettled([
        resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
        resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
      ]);
      const outcomes = [a!, b!];
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failure = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(isContinuationError(failure.reason, 'CLAIM_CONFLICT')).toBe(true);
      await rejects(
        resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
        'CLAIM_CONFLICT',
      );
      expect(counts.transfer).toBe(1);
    });
  });
}
