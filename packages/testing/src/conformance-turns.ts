import { describe, expect, it } from 'vitest';
import { type Counts, countedScript, lookupTool, reportResults, transferTool } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { completed, rejects, type Skip, suspended, throughText } from './conformance-helpers';

export function turnScenarios(harness: ConformanceHarness, _skip: Skip): void {
  describe('turns with several calls', () => {
    const spec = (counts: Counts, model: { calls: number }) => ({
      name: 'accounts',
      instructions: 'You help with bank accounts.',
      script: countedScript(model, [
        {
          toolCalls: [
            { name: 'lookup_account', args: { account: 'A-1' } },
            { name: 'transfer', args: { to: 'bob', amount: 50 } },
            { name: 'transfer', args: { to: 'eve', amount: 7 } },
          ],
        },
        reportResults,
      ]),
      tools: [lookupTool(counts), transferTool(counts)],
    });

    it('a sibling that needs nothing runs once, before the turn suspends', async () => {
      const counts: Counts = {};
      const model = { calls: 0 };
      const agent = await harness.createAgent(spec(counts, model));
      const first = suspended(await agent.run('check and pay'));
      expect(counts.lookup_account).toBe(1);
      expect(first.actions).toHaveLength(2);
      const decisions = Object.fromEntries(first.actions.map((a) => [a.id, { type: 'approve' as const }]));
      const done = completed(
        await (await harness.createAgent(spec(counts, model))).resume(
          throughText(first.continuation),
          decisions,
        ),
      );
      expect(counts.lookup_account).toBe(1);
      expect(counts.transfer).toBe(2);
      expect(String(done.output)).toContain('lookup_account={"account":"A-1","balance":120}');
    });

    it('partial decisions: decided calls run, the rest stay pending, the model is not called', async () => {
      const counts: Counts = {};
      const model = { calls: 0 };
      const agent = await harness.createAgent(spec(counts, model));
      const first = suspended(await agent.run('check and pay'));
      const [bob, eve] = first.actions;
      const second = suspended(await agent.resume(first.continuation, { [bob!.id]: { type: 'approve' } }));
      expect(counts.transfer).toBe(1);
      expect(model.calls).toBe(1);
      expect(second.actions.map((a) => a.id)).toEqual([eve!.id]);
      await rejects(agent.resume(second.continuation, { [bob!.id]: { type: 'approve' } }), 'UNKNOWN_ACTION');
      const done = completed(
        await agent.resume(throughText(second.continuation), {
          [eve!.id]: { type: 'reject', reason: 'too small' },
        }),
      );
      expect(counts.transfer).toBe(1);
      expect(counts.lookup_account).toBe(1);
      expect(model.calls).toBe(2);
      expect(String(done.output)).toContain('too small');
    });
  });
}
