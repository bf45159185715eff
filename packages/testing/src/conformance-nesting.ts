/**
 * Conformance scenarios. Nesting: sub-agents at depths 1 to 3, and parallel sub-agents.
 */
import type { JsonValue } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { type Counts, nestedChain, reportResults, transferTool } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { completed, type Skip, suspended, throughText } from './conformance-helpers';

export function nestingScenarios(harness: ConformanceHarness, _skip: Skip): void {
  describe('nesting', () => {
    for (const depth of [1, 2, 3]) {
      it(`depth ${depth}: the deepest approval surfaces with its path and resumes every level`, async () => {
        const counts: Counts = {};
        const ran: JsonValue[] = [];
        const root = await harness.createAgent(await nestedChain(harness, depth, counts, ran));
        const first = suspended(await root.run('pay bob 50'));
        expect(first.actions).toHaveLength(1);
        const [action] = first.actions;
        expect(action!.toolName).toBe('transfer');
        expect(action!.args).toEqual({ to: 'bob', amount: 50 });
        expect(action!.path.map((segment) => segment.agent)).toEqual(
          Array.from({ length: depth }, (_, i) => `level${i + 1}`),
        );
        expect(action!.path.map((segment) => segment.toolName)).toEqual([
          ...Array.from({ length: depth - 1 }, (_, i) => `ask_level${i + 2}`),
          'transfer',
        ]);
        expect(counts.transfer ?? 0).toBe(0);

        const freshRoot = await harness.createAgent(await nestedChain(harness, depth, counts, ran));
        const done = completed(
          await freshRoot.resume(throughText(first.continuation), { [action!.id]: { type: 'approve' } }),
        );
        expect(counts.transfer).toBe(1);
        expect(String(done.output)).toContain('done:');
        if (depth > 1) expect(String(done.output)).toContain(`ask_level2=`);
        else expect(String(done.output)).toContain('transfer={"ok":true');
      });
    }

    it('two parallel sub-agents each suspend; both actions are listed and resume together', async () => {
      const counts: Counts = {};
      const makeRoot = async () => {
        const child = (name: string, to: string) =>
          harness.createAgent({
            name,
            instructions: `You pay ${to}.`,
            script: [{ toolCalls: [{ name: 'transfer', args: { to, amount: 10 } }] }, reportResults],
            tools: [transferTool(counts)],
          });
        return harness.createAgent({
          name: 'orchestrator',
          instructions: 'Delegate payments.',
          script: [
            {
              toolCalls: [
                { name: 'pay_bob', args: { input: 'pay bob' } },
                { name: 'pay_eve', args: { input: 'pay eve' } },
              ],
            },
            reportResults,
          ],
          tools: [
            {
              kind: 'agent',
              name: 'pay_bob',
              description: 'Pays bob',
              agent: await child('bob_payer', 'bob'),
            },
            {
              kind: 'agent',
              name: 'pay_eve',
              description: 'Pays eve',
              agent: await child('eve_payer', 'eve'),
            },
          ],
        });
      };
      const first = suspended(await (await makeRoot()).run('pay both'));
      expect(first.actions.map((a) => a.path[0]!.toolName).sort()).toEqual(['pay_bob', 'pay_eve']);
      const decisions = Object.fromEntries(first.actions.map((a) => [a.id, { type: 'approve' as const }]));
      const done = completed(await (await makeRoot()).resume(throughText(first.continuation), decisions));
      expect(counts.transfer).toBe(2);
      expect(String(done.output)).toContain('pay_bob=');
      expect(String(done.output)).toContain('pay_eve=');
    });
  });
}
