/**
 * Conformance scenarios. Human input: human tools and ctx.requestInput.
 */
import type { JsonValue } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Counts, reportResults } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { completed, rejects, type Skip, suspended, throughText } from './conformance-helpers';

export function inputScenarios(harness: ConformanceHarness, skip: Skip): void {
  describe('human input', () => {
    it('a human tool suspends and the answer becomes its result', async (ctx) => {
      skip('humanTool', ctx);
      const agent = await harness.createAgent({
        name: 'planner',
        instructions: 'Ask the manager when unsure.',
        script: [
          { toolCalls: [{ name: 'ask_manager', args: { question: 'Which budget?' } }] },
          reportResults,
        ],
        tools: [
          {
            kind: 'human',
            name: 'ask_manager',
            description: 'Ask the manager a question',
            parameters: z.object({ question: z.string() }),
            response: z.object({ answer: z.string() }),
          },
        ],
      });
      const first = suspended(await agent.run('Plan the offsite'));
      const [action] = first.actions;
      expect(action).toMatchObject({ kind: 'input', toolName: 'ask_manager' });
      expect(action!.request).toEqual({ question: 'Which budget?' });
      await rejects(
        agent.resume(first.continuation, { [action!.id]: { type: 'input', value: { wrong: 1 } } }),
        'INVALID_INPUT',
      );
      const done = completed(
        await agent.resume(first.continuation, {
          [action!.id]: { type: 'input', value: { answer: 'Q3' } },
        }),
      );
      expect(String(done.output)).toContain('ask_manager={"answer":"Q3"}');
    });

    it('ctx.requestInput suspends; the tool runs again and its side effect happens once', async (ctx) => {
      skip('requestInput', ctx);
      const counts: Counts = {};
      const spec = {
        name: 'payer',
        instructions: 'Pay invoices.',
        script: [{ toolCalls: [{ name: 'pay_invoice', args: { invoice: 'INV-7' } }] }, reportResults],
        tools: [
          {
            kind: 'function' as const,
            name: 'pay_invoice',
            description: 'Pay an invoice after asking for a reference',
            parameters: z.object({ invoice: z.string() }),
            async execute(
              { invoice }: { invoice: string },
              ctx: { requestInput(r: JsonValue): Promise<JsonValue> },
            ) {
              counts.started = (counts.started ?? 0) + 1;
              const reference = await ctx.requestInput({ question: `Reference for ${invoice}?` });
              counts.paid = (counts.paid ?? 0) + 1;
              return { paid: invoice, reference };
            },
          },
        ],
      };
      const agent = await harness.createAgent(spec);
      const first = suspended(await agent.run('Pay INV-7'));
      expect(first.actions[0]).toMatchObject({
        kind: 'input',
        toolName: 'pay_invoice',
        request: { question: 'Reference for INV-7?' },
      });
      expect(counts.paid ?? 0).toBe(0);
      const fresh = await harness.createAgent(spec);
      const done = completed(
        await fresh.resume(throughText(first.continuation), {
          [first.actions[0]!.id]: { type: 'input', value: 'REF-1' },
        }),
      );
      expect(counts.paid).toBe(1);
      expect(String(done.output)).toContain('"reference":"REF-1"');
    });
  });
}
